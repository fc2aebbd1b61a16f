public import SSML

/// One message for the synth thread.
public struct SynthesisJob: Sendable {
    /// Increases with every message; stale reports are recognised by it.
    public var id: UInt64
    /// SSML as the server sent it (or as built for CHAR and KEY).
    public var ssml: String
    /// espeak-ng voice name as `espeak_SetVoiceByName` takes it.
    public var engineVoice: String
    /// espeak-ng variant, `none` for the voice's own sound.
    public var variant: String?
    public var parameters: EngineParameters
    /// Linear gain applied to every sample (0…1).
    public var gain: Float
    /// How `ssml` is cut into segments: spelling, capitals, voice names.
    public var segmenter: Segmenter
    /// For a sound icon: the files to try, in order; the first that exists is played instead of `ssml`.
    public var soundFiles: [String]
    /// Where a relative `<audio src>` is looked for.
    public var soundFolders: [String]

    public init(
        id: UInt64, ssml: String, engineVoice: String, variant: String?, parameters: EngineParameters,
        gain: Float, segmenter: Segmenter = Segmenter(), soundFiles: [String] = [], soundFolders: [String] = []
    ) {
        self.id = id
        self.ssml = ssml
        self.engineVoice = engineVoice
        self.variant = variant
        self.parameters = parameters
        self.gain = gain
        self.segmenter = segmenter
        self.soundFiles = soundFiles
        self.soundFolders = soundFolders
    }
}

/// Where the sound an `<audio src>` or a SOUND_ICON names may be.
public enum SoundLocator {
    /// The files `source` may stand for, in order: an absolute path or `file://` URI as it is; a
    /// relative name in each folder, as it is and with `.wav`. Other URI schemes and names that
    /// climb out of a folder (`..`) stand for none.
    public static func candidates(for source: String, folders: [String]) -> [String] {
        guard !source.isEmpty, !source.contains("\0") else { return [] }
        if source.hasPrefix("file://") {
            let path = String(source.dropFirst("file://".count))
            return path.hasPrefix("/") ? [path] : []
        }
        if source.hasPrefix("/") { return [source] }
        guard !source.contains("://"), !source.split(separator: "/").contains("..") else { return [] }
        return folders.flatMap { folder in
            source.hasSuffix(".wav") ? ["\(folder)/\(source)"] : ["\(folder)/\(source)", "\(folder)/\(source).wav"]
        }
    }
}

/// What the synth thread reports, each at an absolute position of the sample ring.
public enum SynthesisEvent: Equatable, Sendable {
    /// The job's first sample is at `position`.
    case audioStart(job: UInt64, position: UInt64)
    /// Mark `name` sits before the sample at `position`.
    case mark(job: UInt64, name: String, position: UInt64)
    /// Every mark before `position` has been reported; samples up to it may now be written.
    case progress(job: UInt64, position: UInt64)
    /// The job's last sample ends before `position`.
    case end(job: UInt64, position: UInt64)

    /// The job the event belongs to.
    public var job: UInt64 {
        switch self {
        case .audioStart(let job, _), .mark(let job, _, _), .progress(let job, _), .end(let job, _): job
        }
    }

    /// The ring position the event waits for.
    public var position: UInt64 {
        switch self {
        case .audioStart(_, let position), .mark(_, _, let position), .progress(_, let position),
            .end(_, let position):
            position
        }
    }
}
