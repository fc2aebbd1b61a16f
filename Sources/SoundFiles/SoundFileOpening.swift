package import CSndFile
import Synchronization

// libsndfile keeps the error of a failed open in one variable for the whole process, the one
// `sf_strerror(NULL)` reads, and every open starts by clearing it: a failed open's reason, read
// while another thread opened a file, was "No Error." (CI, with the test suite's threads opening
// sound files side by side). So every open of this package goes through `openSoundFile`, which
// reads the reason under the same lock as the open. The lock guards libsndfile's variable, not
// ours; an open is a few system calls and a header read, and no real-time thread opens files.
private let libsndfileOpening = Mutex(())

/// libsndfile's reason for not opening a sound file, in its own words.
package struct SoundFileRefusal: Error, Equatable {
    package let reason: String
}

/// Opens `path` with libsndfile (`SFM_READ` or `SFM_WRITE`), taking or filling in `info`.
package func openSoundFile(path: String, mode: Int32, info: inout SF_INFO) throws(SoundFileRefusal) -> OpaquePointer {
    try opened { sf_open(path, mode, &info) }
}

/// Opens the file open on `descriptor` with libsndfile, which leaves the descriptor open when it
/// closes the file.
package func openSoundFile(
    descriptor: Int32, mode: Int32, info: inout SF_INFO
) throws(SoundFileRefusal) -> OpaquePointer {
    try opened { sf_open_fd(descriptor, mode, &info, 0) }
}

/// What `open` opened, or libsndfile's reason, read under the same lock.
private func opened(_ open: () -> OpaquePointer?) throws(SoundFileRefusal) -> OpaquePointer {
    let result = libsndfileOpening.withLock { _ -> Result<OpaquePointer, SoundFileRefusal> in
        guard let file = open() else { return .failure(SoundFileRefusal(reason: String(cString: sf_strerror(nil)))) }
        return .success(file)
    }
    return try result.get()
}
