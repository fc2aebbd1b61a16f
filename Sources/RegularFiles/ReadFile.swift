import Glibc
import System

/// The whole regular file at `path`, if it holds at most `limit` bytes (a model of hundreds of
/// megabytes is read in one go: the caller holds it all anyway), with room for `spare` bytes more.
public func readFile(_ path: String, limit: Int, spare: Int = 0) -> Result<[UInt8], FileError> {
    let file: RegularFile
    switch openRegularFile(path, for: .reading) {
    case .success(let opened): file = opened
    case .failure(let error): return .failure(error)
    }
    defer { close(file.descriptor) }
    guard file.size <= limit else { return .failure(.tooLarge(limit: limit)) }
    var failure: Errno?
    // Read straight into the array's storage: no pass over hundreds of megabytes to zero them first.
    let bytes = [UInt8](unsafeUninitializedCapacity: file.size + spare) { buffer, initialized in
        var filled = 0
        while filled < file.size {
            let count = read(file.descriptor, buffer.baseAddress! + filled, file.size - filled)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                failure = Errno(errno)
                break
            }
            guard count > 0 else { break }  // shrank while being read
            filled += count
        }
        initialized = filled
    }
    if let failure { return .failure(.system(failure)) }
    return .success(bytes)
}
