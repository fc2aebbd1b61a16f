/// A voice Utter offers, whatever makes its sound.
public struct Voice: Equatable, Sendable {
    /// How the voice is synthesised.
    public enum Kind: Equatable, Sendable {
        /// An espeak-ng voice, named as `espeak_SetVoiceByName` takes it.
        case espeak(engineName: String)
        /// Recorded clips for the phrases they hold; the rest spoken by a fallback voice.
        case clips(ClipVoice)
        /// A neural (Piper) voice: an ONNX model run by ONNX Runtime.
        case neural(NeuralVoice)
    }

    /// A language the voice speaks, with espeak-ng's priority (lower is better).
    public struct Language: Equatable, Sendable {
        public var tag: LanguageTag
        public var priority: Int

        public init(tag: LanguageTag, priority: Int) {
            self.tag = tag
            self.priority = priority
        }
    }

    /// What LIST VOICES shows and `synthesis_voice` selects; unique.
    public var name: String
    /// A stable identifier, e.g. `espeak-ng:gmw/en-US`.
    public var identifier: String
    /// The languages the voice is made for, best first.
    public var primaryLanguages: [Language]
    /// Further languages it can speak.
    public var supportedLanguages: [Language]
    public var kind: Kind
    /// What a listener should know of it (a language it reads badly), for `utter voices`.
    public var note: String?

    public init(
        name: String, identifier: String, primaryLanguages: [Language], supportedLanguages: [Language] = [],
        kind: Kind, note: String? = nil
    ) {
        self.note = note
        self.name = name
        self.identifier = identifier
        self.primaryLanguages = primaryLanguages
        self.supportedLanguages = supportedLanguages
        self.kind = kind
    }

    /// Every language, primary ones first.
    public var languages: [Language] { primaryLanguages + supportedLanguages }
}

/// A voice made of recorded clips: a folder of sound files and the phrases each one says.
///
/// Its manifest is read by `Configuration.ClipVoiceManifest` (UtterEngine's `VoiceLibrary` finds
/// the voice folders); a message's phrases are found by ``phrases`` and each is turned into
/// `<audio src="clip">phrase</audio>` by `SSML.ClipMarkup`, all three pure, so the segmenter
/// plays clips as it plays any `<audio>`, with the phrase as the fallback. The synth thread keeps
/// decoded clips (Speech's `ClipCache`).
public struct ClipVoice: Equatable, Sendable {
    /// The folder the clips are in.
    public var folder: String
    /// Phrase → clip file (an absolute path).
    public var phrases: PhraseBook
    /// The espeak-ng voice (as `espeak_SetVoiceByName` takes it) that speaks what no clip covers;
    /// nil when that text is not spoken at all.
    public var fallbackEngineName: String?

    public init(folder: String, phrases: PhraseBook, fallbackEngineName: String?) {
        self.folder = folder
        self.phrases = phrases
        self.fallbackEngineName = fallbackEngineName
    }
}

/// A neural voice: a Piper model (VITS, `MODEL.onnx` and its `MODEL.onnx.json`) or a Kokoro
/// voice (a StyleTTS 2 model shared by a pack's voices, its vocabulary and the voice's style vectors).
public struct NeuralVoice: Equatable, Sendable {
    /// The model family, which says how the model is read and run.
    public enum Family: Equatable, Sendable {
        case piper
        /// Kokoro: `styles` is the voice's style vectors (a `.npy` of 510 × 1 × 256 float32).
        case kokoro(styles: String)
    }

    /// The model file.
    public var model: String
    /// Its JSON file: Piper's `MODEL.onnx.json`, Kokoro's `vocab.json`.
    public var config: String
    public var family: Family
    /// The speaker of a multi-speaker model; nil for a model of one voice.
    public var speaker: Int?
    /// The espeak-ng voice that speaks when the model cannot (as `espeak_SetVoiceByName` takes it).
    public var fallbackEngineName: String
    /// The ONNX Runtime library found for it.
    public var runtimeLibrary: String
    /// Inference threads.
    public var threads: Int

    public init(
        model: String, config: String, family: Family = .piper, speaker: Int?, fallbackEngineName: String,
        runtimeLibrary: String, threads: Int
    ) {
        self.model = model
        self.config = config
        self.family = family
        self.speaker = speaker
        self.fallbackEngineName = fallbackEngineName
        self.runtimeLibrary = runtimeLibrary
        self.threads = threads
    }
}
