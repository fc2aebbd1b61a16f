public import Configuration
public import ModuleProtocol
public import Speech
public import Voices

/// Turns a message and the settings sent before it into a synthesis job.
public struct JobFactory: Sendable {
    public var configuration: UtterConfiguration
    public var catalogue: VoiceCatalogue

    public init(configuration: UtterConfiguration, catalogue: VoiceCatalogue) {
        self.configuration = configuration
        self.catalogue = catalogue
    }

    /// The job for `kind` with `text`, or nil when there is no voice at all.
    public func job(
        id: UInt64, kind: MessageKind, text: String, settings: SpeechSettings
    ) -> (job: SynthesisJob, voice: Voice, reason: VoiceCatalogue.Reason)? {
        guard
            let (voice, reason) = catalogue.select(
                synthesisVoice: settings.synthesisVoice, language: settings.language,
                defaultVoice: configuration.defaultVoice, defaultLanguage: configuration.defaultLanguage)
        else { return nil }
        let engineVoice: String
        switch voice.kind {
        case .espeak(let engineName): engineVoice = engineName
        }
        let variant = settings.voiceType.flatMap { configuration.voiceTypeVariants[$0.rawValue] }
        var parameters = parameters(for: settings)
        if kind == .character {
            // A lone character read with every punctuation name gives its name ("comma", "euros").
            parameters.punctuation = .all
        }
        let job = SynthesisJob(
            id: id, ssml: Self.ssml(for: kind, text: text), engineVoice: engineVoice, variant: variant,
            parameters: parameters, gain: Float(settings.volume + 100) / 200,
            spellsText: settings.spelling && kind == .speak,
            soundFiles: kind == .soundIcon ? soundIconFiles(named: text) : [])
        return (job, voice, reason)
    }

    /// The files a SOUND_ICON name may stand for, in the configured folders: the name as it is,
    /// then with `.wav`. A name that is not a plain file name (`/`, `..`) stands for none.
    public func soundIconFiles(named name: String) -> [String] {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != "..", !name.contains("\0") else { return [] }
        return configuration.soundIconFolders.flatMap { folder in
            ["\(folder)/\(name)", "\(folder)/\(name).wav"]
        }
    }

    /// espeak-ng parameters for the server's −100…100 settings.
    public func parameters(for settings: SpeechSettings) -> EngineParameters {
        var parameters = EngineParameters()
        let normal = configuration.normalRate
        parameters.wordsPerMinute =
            settings.rate < 0
            ? normal + (normal - configuration.minimumRate) * settings.rate / 100
            : normal + (configuration.maximumRate - normal) * settings.rate / 100
        parameters.pitch = 50 + settings.pitch / 2
        parameters.pitchRange = 50 + settings.pitchRange / 2
        switch settings.punctuation {
        case .none: parameters.punctuation = .none
        case .some: parameters.punctuation = .some(configuration.somePunctuation)
        case .most: parameters.punctuation = .some(configuration.somePunctuation + "()[]{}<>\"'/\\|;:-")
        case .all: parameters.punctuation = .all
        }
        switch settings.capitalLetters {
        case .none: parameters.capitals = .none
        case .spell: parameters.capitals = .spell
        case .icon: parameters.capitals = .sound
        }
        return parameters
    }

    /// SSML for a message: SPEAK data is SSML already; CHAR and KEY data are raw strings.
    public static func ssml(for kind: MessageKind, text: String) -> String {
        switch kind {
        case .speak:
            return text
        case .character:
            // espeak-ng names a lone character as a letter, digit or symbol by itself; its
            // say-as "characters" says symbols and emoji twice ("euros euros") in 1.51.
            // The server sends `space` as a CHAR for languages without symbol tables.
            let character = text == "space" ? " " : text
            return "<speak>\(escape(character))</speak>"
        case .key:
            return "<speak>\(escape(keyWords(text)))</speak>"
        case .soundIcon:
            return ""
        }
    }

    /// An SSIP key name as words: `shift_a` → `shift a`, `kp-enter` → `keypad enter`.
    static func keyWords(_ key: String) -> String {
        key.split(separator: "_", omittingEmptySubsequences: true).map { part -> String in
            if part.hasPrefix("kp-") { return "keypad " + part.dropFirst(3) }
            if part.count == 1 { return String(part) }
            return part.replacingDashes()
        }.joined(separator: " ")
    }

    /// `text` with `&`, `<` and `>` escaped for SSML.
    public static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}

extension Substring {
    fileprivate func replacingDashes() -> String {
        String(map { $0 == "-" ? " " : $0 })
    }
}
