import SSML

/// Something to say, and how: the voice, the language and the prosody.
///
/// The scales follow AVSpeechUtterance, so code written against it carries over: a rate of 0.5
/// is the voice's normal rate, a pitch of 1 its normal pitch.
public struct Utterance: Sendable {
    /// The text spoken: as given to ``init(text:)``, or for ``init(ssml:)`` the document's text
    /// content (markup left out, entities decoded). Word events are ranges of it.
    public let text: String
    /// The SSML document, for an utterance made with ``init(ssml:)``.
    public let ssml: String?
    /// A voice's name or identifier (see ``Speaker/voices``); nil: chosen by ``language``.
    public var voice: String?
    /// A BCP 47 language tag (`en-GB`); nil: the voice's own, else `en-US`.
    public var language: String?
    /// 0…1; 0.5 is the voice's normal rate, 0 the slowest and 1 the fastest Utter allows.
    public var rate: Double = 0.5
    /// 0.5…2, a multiplier of the voice's normal pitch.
    public var pitch: Double = 1.0
    /// 0…1, a gain on the voice's samples.
    public var volume: Double = 1.0
    /// Seconds of silence before the utterance, and after it (before the next one starts).
    public var preDelay: Double = 0
    public var postDelay: Double = 0
    /// Whether text in a script the voice cannot read (a Japanese name in English) is spoken by a
    /// voice of its language; nil: as `utter.conf` says (`LanguageSwitching`, on by default).
    public var languageSwitching: Bool?

    /// Plain text, spoken as written.
    public init(text: String) {
        self.text = text
        self.ssml = nil
    }

    /// An SSML document (`<speak>…</speak>`): marks, breaks, prosody, voices and languages inside it.
    /// Broken markup is spoken as text, never refused.
    public init(ssml: String) {
        self.text = SSMLReader.textContent(of: ssml)
        self.ssml = ssml
    }

    /// The SSML the engine gets: the document, or the text escaped into one.
    var markup: String {
        ssml ?? "<speak>\(SSMLText.escape(text))</speak>"
    }
}
