public import AudioSinks
import CSndFile
import Glibc
import System

/// A sound file being written through libsndfile, for a ``AudioSinks/RenderedSink``: mono 16-bit
/// at the sink's rate, in the format its name ends with (`.wav`, `.flac`, `.ogg`/`.oga`, `.aiff`,
/// `.au`, `.caf`). The header is brought up to date after every write, so the file is complete
/// whenever speech has been rendered, even if the process then ends without closing it.
public final class SoundFileStore: SampleStore {
    private let file: Locked<OpaquePointer?>
    public let path: String

    /// The container and encoding for a file name; nil when its extension names none we write.
    public static func format(forPath path: String) -> Int32? {
        let name = path.lowercased()
        let formats: [(String, Int32)] = [
            (".wav", Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)),
            (".flac", Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)),
            (".ogg", Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)),
            (".oga", Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)),
            (".aiff", Int32(SF_FORMAT_AIFF | SF_FORMAT_PCM_16)),
            (".aif", Int32(SF_FORMAT_AIFF | SF_FORMAT_PCM_16)),
            (".au", Int32(SF_FORMAT_AU | SF_FORMAT_PCM_16)),
            (".caf", Int32(SF_FORMAT_CAF | SF_FORMAT_PCM_16)),
        ]
        return formats.first { name.hasSuffix($0.0) }?.1
    }

    /// Creates (or truncates) `path` for `sampleRate` mono audio.
    public init(path: String, sampleRate: Int) throws(SoundFileError) {
        self.path = path
        guard let format = Self.format(forPath: path) else {
            throw SoundFileError(
                path: path, reason: "its name must end with .wav, .flac, .ogg, .oga, .aiff, .au or .caf", writing: true)
        }
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = 1
        info.format = format
        let handle: OpaquePointer
        do {
            handle = try openSoundFile(path: path, mode: Int32(SFM_WRITE), info: &info)
        } catch {
            // libsndfile says "System error : No such file or directory." for a failed open.
            var reason = error.reason
            if reason.hasPrefix("System error : ") { reason.removeFirst("System error : ".count) }
            while reason.last == "." { reason.removeLast() }
            throw SoundFileError(path: path, reason: reason, writing: true)
        }
        if format & Int32(SF_FORMAT_TYPEMASK) != Int32(SF_FORMAT_OGG) {
            sf_command(handle, Int32(SFC_SET_UPDATE_HEADER_AUTO), nil, Int32(SF_TRUE))
        }
        file = Locked(handle)
    }

    deinit {
        close()
    }

    public func append(_ samples: UnsafeBufferPointer<Int16>) -> (any Error)? {
        file.withLock { handle -> (any Error)? in
            guard let handle, let base = samples.baseAddress else { return nil }
            let written = sf_write_short(handle, base, sf_count_t(samples.count))
            guard written == samples.count else {
                return SoundFileError(path: path, reason: String(cString: sf_strerror(handle)), writing: true)
            }
            return nil
        }
    }

    /// Finishes the file (an Ogg stream is only complete once closed); later samples are dropped.
    public func close() {
        file.withLock { handle in
            if let open = handle { sf_close(open) }
            handle = nil
        }
    }
}
