public import SSML
public import Voices

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
    /// Whether the job plays right after the samples of the job before it (queued speech), rather
    /// than replacing whatever of them is not heard yet (a screen reader's next message).
    public var continuing = false
    /// Whether the engine's words are reported (as ``Playback/SynthesisEvent/word(job:text:position:)``).
    public var reportsWords = false
    /// The engine voice for each language a segment may be switched to (lower-case BCP 47 tags and
    /// primary subtags), as ``SSML/LanguageSwitching`` names them.
    public var languageVoices: [String: String] = [:]
    /// The neural voice that speaks the job (`engineVoice` is its fallback), or nil.
    public var neural: NeuralVoice?
    /// For a key or character on a neural voice under `NeuralEcho auto`: how late (milliseconds)
    /// it may be heard before `engineVoice` says it instead; nil to keep the neural voice.
    public var neuralEchoBudget: Int?
    /// How many times faster than recorded a clip voice's clips (and the message's other `<audio>`)
    /// are played, and than its own pace a neural voice speaks: the message's words a minute
    /// against `NormalRate`, so that every voice kind follows espeak-ng's scale. 1 for espeak-ng
    /// voices, which take ``EngineParameters/wordsPerMinute`` themselves.
    public var speed = 1.0
    /// The `speed` at SSIP rate +100 (`MaximumRate` against `NormalRate`).
    public var maximumSpeed = 1.0
    /// Silence before the first sound and after the last, in milliseconds.
    public var leadingSilence = 0
    public var trailingSilence = 0

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

