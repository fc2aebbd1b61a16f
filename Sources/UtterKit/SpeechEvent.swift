/// What happens to an utterance, in the order it happens; each comes when it is heard (on a
/// device, by its clock; in a file, at its sample position).
public enum SpeechEvent: Equatable, Sendable {
    /// Its first sound is heard.
    case started
    /// A word starts: its range in the utterance's ``Utterance/text``, a whole word as the text has
    /// it (`It's`, `9:15`, `S.H.I.E.L.D`; in Chinese and Japanese, a word of the reading). Every
    /// word of the text comes once, in order, even one the voice says as part of another.
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
