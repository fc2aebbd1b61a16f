/// How punctuation is read.
public enum PunctuationMode: String, Equatable, Sendable, CaseIterable {
    case none, some, most, all
}

/// How capital letters are signalled.
public enum CapitalLetterMode: String, Equatable, Sendable, CaseIterable {
    case none, spell, icon
}

/// The voice types SSIP clients choose from.
public enum VoiceType: String, Equatable, Hashable, Sendable, CaseIterable {
    case male1, male2, male3, female1, female2, female3
    case childMale = "child_male"
    case childFemale = "child_female"
}

/// The parameters the server sends before every message, as typed values.
public struct SpeechSettings: Equatable, Sendable {
    /// −100…100, 0 = the voice's default.
    public var rate = 0
    public var pitch = 0
    public var pitchRange = 0
    public var volume = 100
    public var punctuation = PunctuationMode.none
    public var spelling = false
    public var capitalLetters = CapitalLetterMode.none
    public var voiceType: VoiceType?
    /// The message language as sent (`NULL` → nil); compare case-insensitively.
    public var language: String?
    /// A name from our voice list, or anything a client made up (`NULL` → nil).
    public var synthesisVoice: String?

    public init() {}

    /// Applies a SET block, returning one message per line that was not understood.
    ///
    /// Nothing is refused: a non-2xx reply to SET makes the server drop the message, so unknown
    /// names and bad values are reported for the log and the previous value is kept.
    public mutating func apply(_ block: SettingsBlock) -> [String] {
        var problems = block.malformedLines.map { "SET line without '=': \($0.debugDescription)" }
        var sawVoiceType = false
        for setting in block.settings {
            let value = setting.value
            switch setting.name {
            case "rate": apply(value, to: \.rate, name: setting.name, problems: &problems)
            case "pitch": apply(value, to: \.pitch, name: setting.name, problems: &problems)
            case "pitch_range": apply(value, to: \.pitchRange, name: setting.name, problems: &problems)
            case "volume": apply(value, to: \.volume, name: setting.name, problems: &problems)
            case "punctuation_mode":
                if let mode = PunctuationMode(rawValue: value.lowercased()) {
                    punctuation = mode
                } else {
                    problems.append("unknown punctuation_mode \(value.debugDescription), kept \(punctuation.rawValue)")
                }
            case "spelling_mode":
                switch value.lowercased() {
                case "on": spelling = true
                case "off": spelling = false
                default:
                    problems.append("unknown spelling_mode \(value.debugDescription), kept \(spelling ? "on" : "off")")
                }
            case "cap_let_recogn":
                if let mode = CapitalLetterMode(rawValue: value.lowercased()) {
                    capitalLetters = mode
                } else {
                    problems.append("unknown cap_let_recogn \(value.debugDescription), kept \(capitalLetters.rawValue)")
                }
            case "voice":
                sawVoiceType = true
                if value == "NULL" {
                    voiceType = nil
                } else if let type = VoiceType(rawValue: value.lowercased()) {
                    voiceType = type
                } else {
                    voiceType = nil
                    problems.append("unknown voice type \(value.debugDescription), using the voice's default")
                }
            case "language":
                language = value == "NULL" || value.isEmpty ? nil : value
            case "synthesis_voice":
                synthesisVoice = value == "NULL" || value.isEmpty ? nil : value
            default:
                problems.append("unknown setting \(setting.name.debugDescription)=\(value.debugDescription), ignored")
            }
        }
        // The server leaves out `voice=` while a synthesis voice is chosen: no voice type then.
        if !sawVoiceType && !block.settings.isEmpty {
            voiceType = nil
        }
        return problems
    }

    private mutating func apply(
        _ value: String, to keyPath: WritableKeyPath<SpeechSettings, Int>, name: String, problems: inout [String]
    ) {
        guard let number = Int(value.trimmingSpaces()) else {
            problems.append("\(name)=\(value.debugDescription) is not a number, kept \(self[keyPath: keyPath])")
            return
        }
        let clamped = min(100, max(-100, number))
        if clamped != number {
            problems.append("\(name)=\(number) is outside -100…100, using \(clamped)")
        }
        self[keyPath: keyPath] = clamped
    }
}


