import CSndFile
import Glibc
import RegularFiles

/// A sound file open for reading through libsndfile, with at least one channel at a known rate.
struct SoundFileReader: ~Copyable {
    let file: OpaquePointer
    let info: SF_INFO
    private let descriptor: Int32

    init(path: String) throws(SoundFileError) {
        // Opened here rather than by libsndfile: a FIFO or device in a clip's place would block
        // the synthesis thread in open() or read() for good.
        let opened: RegularFile
        switch openRegularFile(path, for: .reading) {
        case .success(let file): opened = file
        case .failure(.notRegularFile): throw SoundFileError(path: path, reason: "it is not a regular file")
        case .failure(let error): throw SoundFileError(path: path, reason: "\(error)")
        }
        var info = SF_INFO()
        let file: OpaquePointer
        do {
            file = try openSoundFile(descriptor: opened.descriptor, mode: Int32(SFM_READ), info: &info)
        } catch {
            close(opened.descriptor)
            throw SoundFileError(path: path, reason: error.reason)
        }
        guard info.channels > 0, info.samplerate > 0 else {
            sf_close(file)
            close(opened.descriptor)
            throw SoundFileError(path: path, reason: "it has no audio channels")
        }
        self.file = file
        self.info = info
        descriptor = opened.descriptor
    }

    deinit {
        sf_close(file)
        close(descriptor)
    }
}

/// How long a sound file is and at what rate, as its header says.
public struct SoundFileInfo: Equatable, Sendable {
    public var frames: Int
    public var sampleRate: Int
    public var channels: Int

    /// Reads the header of `path` through libsndfile.
    public init(path: String) throws(SoundFileError) {
        let reader = try SoundFileReader(path: path)
        frames = Int(reader.info.frames)
        sampleRate = Int(reader.info.samplerate)
        channels = Int(reader.info.channels)
    }
}

/// A mono sound file read from its start a stretch at a time, as 16-bit samples at its own rate:
/// for cutting a long rendering into clips without holding all of it.
public struct SoundFileStream: ~Copyable {
    private let reader: SoundFileReader
    public var sampleRate: Int { Int(reader.info.samplerate) }

    public init(path: String) throws(SoundFileError) {
        let reader = try SoundFileReader(path: path)
        guard reader.info.channels == 1 else { throw SoundFileError(path: path, reason: "it is not mono") }
        self.reader = reader
    }

    /// The next `frames` samples, fewer at the end of the file.
    public func read(frames: Int) -> [Int16] {
        var samples = [Int16](repeating: 0, count: frames)
        let read = samples.withUnsafeMutableBufferPointer {
            Int(sf_readf_short(reader.file, $0.baseAddress, sf_count_t(frames)))
        }
        return Array(samples.prefix(max(0, read)))
    }
}
