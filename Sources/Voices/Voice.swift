/// A voice Utter offers, whatever makes its sound.
public struct Voice: Equatable, Sendable {
    /// How the voice is synthesised.
    public enum Kind: Equatable, Sendable {
        /// An espeak-ng voice, named as `espeak_SetVoiceByName` takes it.
        case espeak(engineName: String)
        /// Recorded clips for the phrases they hold; the rest spoken by a fallback voice.
        case clips(ClipVoice)
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
