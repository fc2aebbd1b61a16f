package import ModuleProtocol
import Playback
import Speech
package import Voices

/// A message made into its synthesis job, ready for ``SpeechPipeline/submit(_:)``.
package struct SpeechMessage: Sendable {
    fileprivate let job: SynthesisJob

    package var id: UInt64 { job.id }
    /// The sound files it plays (a SOUND_ICON's, when the icon names one).
    package var soundFiles: [String] { job.soundFiles }
}

/// What a message's listener has heard: the events a server front end (the SSIP module) reports.
package enum MessageEvent: Equatable, Sendable {
    /// Its first sample.
    case started(job: UInt64)
    /// Mark `name`.
    case mark(job: UInt64, name: String)
    /// Its last sample.
    case finished(job: UInt64)

    package var job: UInt64 {
        switch self {
        case .started(let job), .mark(let job, _), .finished(let job): job
        }
    }

    /// Words and progress are the engine's bookkeeping, not a server's events.
    init?(_ event: SynthesisEvent) {
        switch event {
        case .audioStart(let job, _): self = .started(job: job)
        case .mark(let job, let name, _): self = .mark(job: job, name: name)
        case .end(let job, _): self = .finished(job: job)
        case .word, .progress: return nil
        }
    }
}

extension JobFactory {
    /// The message for `kind` with `text` as job `id`, or nil when there is no voice at all.
    package func message(
        id: UInt64, kind: MessageKind, text: String, settings: SpeechSettings
    ) -> (message: SpeechMessage, voice: Voice, reason: VoiceCatalogue.Reason)? {
        job(id: id, kind: kind, text: text, settings: settings).map {
            (SpeechMessage(job: $0.job), $0.voice, $0.reason)
        }
    }
}

/// The pipeline as a server front end drives it: in messages and the events a server reports,
/// so that the front end never handles the engine's jobs and events.
extension SpeechPipeline {
    /// Queues `message` for synthesis and tracks its events.
    package func submit(_ message: SpeechMessage) {
        submit(message.job)
    }

    /// ``pump(afterReceiving:alsoWakeAt:_:)``, handing `handle` the events a server reports.
    package func pumpMessages(afterReceiving received: () -> Void = {}, _ handle: (MessageEvent) -> Void) {
        pump(afterReceiving: received) { event in
            if let heard = MessageEvent(event) { handle(heard) }
        }
    }

    /// The position playback must stop at for a pause to land on the next event `isBoundary`
    /// accepts (``PlaybackTracker/pauseLimit(where:)``).
    package func pauseLimit(where isBoundary: (MessageEvent) -> Bool) -> UInt64 {
        tracker.pauseLimit { MessageEvent($0).map(isBoundary) ?? false }
    }
}
