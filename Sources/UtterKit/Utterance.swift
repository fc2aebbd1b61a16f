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

    /// Plain text, spoken as written.
    public init(text: String) {
        self.text = text
        self.ssml = nil
    }

    /// An SSML document (`<speak>…</speak>`): marks, breaks, prosody, voices and languages inside it.
    /// Broken markup is spoken as text, never refused.
    public init(ssml: String) {
        var text = ""
        for case .text(let piece) in SSMLReader.tokens(of: ssml) { text += piece }
        self.text = text
        self.ssml = ssml
    }

    /// The SSML the engine gets: the document, or the text escaped into one.
    var markup: String {
        ssml ?? "<speak>\(SSMLText.escape(text))</speak>"
    }
}

/// What happens to an utterance, in the order it happens; each comes when it is heard (on a
/// device, by its clock; in a file, at its sample position).
public enum SpeechEvent: Equatable, Sendable {
    /// Its first sound is heard.
    case started
    /// A word starts: its range in the utterance's ``Utterance/text``.
    case word(Range<String.Index>)
    /// An SSML `<mark name>` is reached.
    case mark(String)
    /// Playback paused (``Speaker/pause(at:)``), and resumed.
    case paused
    case resumed
    /// It was heard to its end (the stream ends).
    case finished
    /// It was stopped, or it was waiting when ``Speaker/stop(at:)`` cleared the queue (the stream ends).
    case cancelled
}

/// Where a pause or stop takes effect.
public enum SpeechBoundary: Sendable {
    /// At once.
    case immediate
    /// Before the next word.
    case word
    /// At the next SSML mark.
    case mark
}

/// A voice a ``Speaker`` can speak with.
public struct VoiceDescription: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Synthesised by libespeak-ng.
        case espeakNG
        /// Recorded clips for its phrases, the rest spoken by a fallback voice.
        case clip
    }

    /// The name clients and ``Utterance/voice`` use, such as `English (Great Britain)`.
    public let name: String
    /// A stable identifier, such as `espeak-ng:gmw/en-GB-x-rp`.
    public let identifier: String
    /// The language it speaks best (BCP 47).
    public let primaryLanguage: String
    /// The further languages it speaks.
    public let supportedLanguages: [String]
    public let kind: Kind
}

/// Why a ``Speaker`` cannot be made, or an utterance not spoken, with what to do about it.
public enum SpeakerError: Error, Equatable, CustomStringConvertible {
    /// libespeak-ng could not start.
    case engineUnavailable(String)
    /// The audio device could not be opened; `reason` is ALSA's, with what to try.
    case deviceUnavailable(device: String, reason: String)
    /// The sound file could not be created.
    case fileNotWritable(path: String, reason: String)
    /// No voice has that name or identifier.
    case unknownVoice(String)
    /// No voice is installed at all.
    case noVoices

    public var description: String {
        switch self {
        case .engineUnavailable(let reason):
            "The speech engine cannot start: \(reason). Only one Speaker can exist in a process at a time."
        case .deviceUnavailable(_, let reason):
            "\(reason) (Or render to a sound file instead.)"
        case .fileNotWritable(let path, let reason):
            "Cannot write '\(path)': \(reason)."
        case .unknownVoice(let name):
            "No voice is called '\(name)'. Speaker.voices (or 'utter voices') lists them."
        case .noVoices:
            "No voice is installed: install the espeak-ng-data package."
        }
    }
}
