import CSndFile
import Glibc
import SoundFiles

/// A sound file's samples and format, as libsndfile reads it.
public struct SoundFileContents: Sendable {
    public var samples: [Int16]
    public var sampleRate: Int
    public var channels: Int
    /// libsndfile's format word (container | encoding).
    public var format: Int32

    /// Seconds of audio.
    public var duration: Double { Double(samples.count / max(1, channels)) / Double(max(1, sampleRate)) }

    /// Reads `path` through libsndfile; nil when it cannot.
    public init?(path: String) {
        var info = SF_INFO()
        guard let file = try? openSoundFile(path: path, mode: Int32(SFM_READ), info: &info) else { return nil }
        defer { sf_close(file) }
        var samples = [Int16](repeating: 0, count: Int(info.frames) * Int(info.channels))
        let read = sf_read_short(file, &samples, sf_count_t(samples.count))
        self.samples = Array(samples.prefix(Int(read)))
        self.sampleRate = Int(info.samplerate)
        self.channels = Int(info.channels)
        self.format = info.format
    }

    /// Whether the container is WAV, FLAC or Ogg.
    public var container: String {
        switch format & Int32(SF_FORMAT_TYPEMASK) {
        case Int32(SF_FORMAT_WAV): "wav"
        case Int32(SF_FORMAT_FLAC): "flac"
        case Int32(SF_FORMAT_OGG): "ogg"
        default: "other"
        }
    }

    /// Writes mono 16-bit `samples` at `sampleRate` to a WAV file at `path`; false on failure.
    @discardableResult
    public static func writeWAV(_ samples: [Int16], sampleRate: Int, to path: String) -> Bool {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = 1
        info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        guard let file = try? openSoundFile(path: path, mode: Int32(SFM_WRITE), info: &info) else { return false }
        defer { sf_close(file) }
        return sf_write_short(file, samples, sf_count_t(samples.count)) == samples.count
    }
}

/// Root mean square of `samples`: how loud they are (0 for digital silence).
public func rootMeanSquare<Samples: Collection<Int16>>(_ samples: Samples) -> Double {
    guard !samples.isEmpty else { return 0 }
    let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
    return (sum / Double(samples.count)).squareRoot()
}

/// A 16-bit mono WAV file of a sine tone at 22,050 Hz, written with libsndfile.
public func writeTone(_ path: String, frequency: Double, seconds: Double, amplitude: Double) {
    let samples = tone(frequency: frequency, seconds: seconds, amplitude: amplitude)
    precondition(SoundFileContents.writeWAV(samples, sampleRate: 22050, to: path), "cannot write \(path)")
}
