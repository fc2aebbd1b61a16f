import CSndFile
import Glibc
import RegularFiles

/// A sound file that could not be used, with what to check.
public struct SoundFileError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let reason: String
    /// Whether the file was to be written rather than played.
    public let writing: Bool

    public init(path: String, reason: String, writing: Bool = false) {
        self.path = path
        self.reason = reason
        self.writing = writing
    }

    public var description: String { "cannot \(writing ? "write" : "play") \(path): \(reason)" }
}

/// Mono 16-bit audio at a known rate, decoded from a file.
public struct SoundClip: Equatable, Sendable {
    public var samples: [Int16]
    public var sampleRate: Int
    /// The file announced more audio than it held (cut short, as while it is being copied):
    /// the clip is what could be read.
    public var isCutShort: Bool

    public init(samples: [Int16], sampleRate: Int, isCutShort: Bool = false) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.isCutShort = isCutShort
    }

    /// Reads a sound file (WAV, AIFF, FLAC, Ogg… through libsndfile), mixed down to mono and
    /// converted to `sampleRate` (through libsoxr) when it has another rate.
    public static func load(
        _ path: String, sampleRate: Int, maximumSeconds: Double = 60
    ) throws(SoundFileError) -> SoundClip {
        let reader = try SoundFileReader(path: path)
        let (file, info) = (reader.file, reader.info)
        let channels = Int(info.channels)
        guard Double(info.frames) <= maximumSeconds * Double(info.samplerate) else {
            throw SoundFileError(path: path, reason: "it is longer than \(Int(maximumSeconds)) seconds")
        }
        // For a WAV file cut short libsndfile counts only the frames there are; its log keeps
        // what the header said: "data : 44100 (should be 22050)".
        var log = [CChar](repeating: 0, count: 2048)
        _ = sf_command(file, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))
        let headerDisagrees = String(decoding: log.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .split(separator: "\n").contains { $0.hasPrefix("data") && $0.contains("(should be") }
        var interleaved = [Float](repeating: 0, count: Int(info.frames) * channels)
        let read = interleaved.withUnsafeMutableBufferPointer {
            Int(sf_readf_float(file, $0.baseAddress, info.frames))
        }
        guard read > 0 else {
            throw SoundFileError(
                path: path, reason: "it holds no readable audio (\(String(cString: sf_strerror(file))))")
        }
        var mono = [Float](repeating: 0, count: read)
        for frame in 0..<read {
            var sum: Float = 0
            for channel in 0..<channels { sum += interleaved[frame * channels + channel] }
            mono[frame] = sum / Float(channels)
        }
        if Int(info.samplerate) != sampleRate {
            do {
                mono = try Resampling.resample(mono, from: Int(info.samplerate), to: sampleRate)
            } catch {
                throw SoundFileError(path: path, reason: "resampling failed: \(error)")
            }
        }
        return SoundClip(
            // libsndfile reads 16-bit samples as x / 32768: scaling back by the same power of two,
            // rounded, gives every sample of a 16-bit file at the output rate back bit for bit.
            samples: mono.map { Int16(max(-32768, min(32767, ($0 * 32768).rounded()))) }, sampleRate: sampleRate,
            isCutShort: headerDisagrees || read < Int(info.frames))
    }
}
