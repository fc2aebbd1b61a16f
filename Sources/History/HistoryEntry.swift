/// One message as it was spoken: what the user hears listed by `utter history`.
public struct HistoryEntry: Equatable, Sendable {
    /// What kind of message it was, by speech-dispatcher's command.
    public enum Kind: String, CaseIterable, Equatable, Sendable {
        case speak
        case character = "char"
        case key
        case soundIcon = "sound-icon"
    }

    /// The text heard: markup left out, entities decoded.
    public var text: String
    public var kind: Kind
    /// The voice's name as the voice list gives it.
    public var voice: String
    /// The message's BCP 47 language tag.
    public var language: String
    /// When it was accepted, in milliseconds since 1970 (UTC).
    public var time: Int64

    public init(text: String, kind: Kind, voice: String, language: String, time: Int64) {
        self.text = text
        self.kind = kind
        self.voice = voice
        self.language = language
        self.time = time
    }
}
