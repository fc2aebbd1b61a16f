import RegularFiles
import SoundFiles

/// Decoded sound files, kept so a sound icon or a clip voice's clip plays at once the next time.
/// A file whose size or modification time changed since it was decoded (replaced, truncated) is
/// decoded again. Bounded by the samples it holds (a clip voice may have thousands of clips).
struct ClipCache {
    /// 2 Mi samples: 4 MiB, 95 seconds of clips at 22,050 Hz. Decoding a short WAV clip again
    /// costs under a millisecond (bench/clips), so a larger cache would buy little for its memory.
    static let capacity = 2 << 20
    private var samples = 0
    private struct Entry {
        var clip: SoundClip
        var stamp: FileStamp
    }
    private var entries: [String: Entry] = [:]
    /// What the log should say about the files decoded since the last look (taken by the caller).
    var notices: [String] = []

    /// Why none of a list of candidate files could be played.
    struct NoClip: Error, CustomStringConvertible {
        var description: String
    }

    /// The first of `candidates` that exists and decodes.
    mutating func firstClip(among candidates: [String], sampleRate: Int) -> Result<SoundClip, NoClip> {
        var problems: [String] = []
        for path in candidates where isReadable(path) {
            do {
                return .success(try clip(at: path, sampleRate: sampleRate))
            } catch {
                problems.append("\(error)")
            }
        }
        let why = problems.isEmpty ? "no readable file among \(candidates)" : problems.joined(separator: "; ")
        return .failure(NoClip(description: why))
    }

    mutating func clip(at path: String, sampleRate: Int) throws(SoundFileError) -> SoundClip {
        let stamp = fileStamp(path)
        if let stamp, let entry = entries[path], entry.clip.sampleRate == sampleRate, entry.stamp == stamp {
            return entry.clip
        }
        if let stale = entries.removeValue(forKey: path) { samples -= stale.clip.samples.count }
        let clip = try SoundClip.load(path, sampleRate: sampleRate, maximumSeconds: 30)
        if clip.isCutShort {
            notices.append(
                "\(path) is cut short (its header announces more audio than it holds); playing the \(clip.samples.count * 1000 / max(1, sampleRate)) ms it has"
            )
        }
        guard let stamp else { return clip }
        // Making room drops whichever entries come first: no order to keep up on every play.
        while samples + clip.samples.count > Self.capacity, let victim = entries.first {
            samples -= victim.value.clip.samples.count
            entries.removeValue(forKey: victim.key)
        }
        entries[path] = Entry(clip: clip, stamp: stamp)
        samples += clip.samples.count
        return clip
    }
}
