/// Where a pause or stop takes effect.
public enum SpeechBoundary: Sendable {
    /// At once.
    case immediate
    /// Before the next word.
    case word
    /// At the next SSML mark.
    case mark
}
