import UtterKit

/// What utter's commands speak through: Utter's own engine (``Speaker``), or the user's
/// speech-dispatcher and whatever module it runs (``SpeechDispatcherChannel``). Both queue
/// utterances back to back and report each one's events as they are heard.
protocol SpeechChannel: AnyObject, Sendable {
    func speak(_ utterance: Utterance) -> AsyncStream<SpeechEvent>
    func pause(at boundary: SpeechBoundary)
    func resume()
    func stop(at boundary: SpeechBoundary)
}

extension Speaker: SpeechChannel {}
