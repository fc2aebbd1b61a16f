import ALSAOutput
package import Configuration
package import Logging
package import ModuleProtocol
import Playback
import Speech
package import System
package import Voices

/// libespeak-ng, loaded and not playing yet: a front end reads its voices, then starts a
/// ``SpeechService`` on it. One at a time: libespeak-ng keeps its state in globals.
package struct VoiceEngine: ~Copyable {
    fileprivate let engine: EspeakEngine

    package init() throws {
        engine = try EspeakEngine()
    }

    /// The espeak-ng voices, as the voice catalogue lists them.
    package func voices() -> [Voice] {
        engine.voices()
    }
}

/// A message made into its synthesis job, ready for ``SpeechService/submit(_:)``.
package struct SpeechMessage: Sendable {
    fileprivate let job: SynthesisJob

    package var id: UInt64 { job.id }
    /// The sound files it plays (a SOUND_ICON's, when the icon names one).
    package var soundFiles: [String] { job.soundFiles }
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

/// The speech a server front end (the SSIP module) drives: the shared ``SpeechPipeline`` playing
/// on one ``SoundSession/Route``, the ALSA device it follows, and the events of its messages, each
/// handed out when it is heard. Used by one control thread, as the pipeline is.
package final class SpeechService {
    /// What a message's listener has heard, handed out by ``pump(afterReceiving:_:)``.
    package enum Event: Equatable, Sendable {
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

    package let route: SoundSession.Route
    private let pipeline: SpeechPipeline
    /// The pipeline's sink when it is an ALSA device (a server's audio settings change it).
    private let alsa: ALSASink?
    private let configuration: UtterConfiguration

    /// Starts `engine` playing on `route`, with `configuration`'s audio, Japanese dictionary and
    /// neural model settings; `alsa` is read when the route is ALSA's, for the device to open.
    package init(
        engine: consuming VoiceEngine, route: SoundSession.Route, configuration: UtterConfiguration,
        logger: Logger, alsa: () -> ALSADevice
    ) throws {
        var device: ALSASink?
        pipeline = try SpeechPipeline(
            engine: engine.engine, logger: logger, japaneseDictionary: configuration.japaneseDictionary,
            neural: NeuralModelStore.Settings(
                loadedLimit: configuration.neuralVoicesLoaded, idleSeconds: configuration.neuralIdleSeconds)
        ) { wake, sampleRate in
            let sink = try SoundSession.sink(
                for: route.output(alsa: alsa), configuration: configuration, sampleRate: sampleRate, wake: wake)
            device = sink as? ALSASink
            return sink
        }
        self.alsa = device
        self.route = route
        self.configuration = configuration
        // A corked or sleeping stream costs nothing in silence: only an ALSA device is closed when idle.
        pipeline.idleSeconds = route.backend == .alsa ? configuration.audioIdleSeconds : 0
    }

    /// What the sink said when it started (a refused real-time priority), for the log.
    package var startNotice: String? { pipeline.startNotice }
    /// See ``SpeechPipeline/wake``.
    package var wake: EventFD { pipeline.wake }
    /// See ``SpeechPipeline/deadline``.
    package var deadline: UInt64? { pipeline.deadline }

    /// Queues `message` for synthesis and tracks its events.
    package func submit(_ message: SpeechMessage) {
        pipeline.submit(message.job)
    }

    /// See ``SpeechPipeline/halt(through:)``.
    package func halt(through job: UInt64) {
        pipeline.halt(through: job)
    }

    /// See ``SpeechPipeline/finish(through:)``.
    package func finish(through job: UInt64) {
        pipeline.finish(through: job)
    }

    /// See ``SpeechPipeline/limitPlayback(to:)``.
    package func limitPlayback(to position: UInt64?) {
        pipeline.limitPlayback(to: position)
    }

    /// See ``SpeechPipeline/holdPlayback()``.
    package func holdPlayback() {
        pipeline.holdPlayback()
    }

    /// ``SpeechPipeline/pump(afterReceiving:alsoWakeAt:_:)`` with the events a server reports.
    package func pump(afterReceiving received: () -> Void = {}, _ handle: (Event) -> Void) {
        pipeline.pump(afterReceiving: received) { event in
            if let heard = Event(event) { handle(heard) }
        }
    }

    /// The position playback must stop at for a pause to land on the next event `isBoundary`
    /// accepts (``PlaybackTracker/pauseLimit(where:)``).
    package func pauseLimit(where isBoundary: (Event) -> Bool) -> UInt64 {
        pipeline.tracker.pauseLimit { Event($0).map(isBoundary) ?? false }
    }

    /// Starts loading `voice`'s model in the background, so its first message need not wait for it.
    package func prepare(_ voice: NeuralVoice) {
        pipeline.synthesizer.prepare(voice)
    }

    /// Has the synth thread open the audio output before the first message needs it.
    package func prepareAudio() {
        pipeline.synthesizer.prepareAudio()
    }

    /// Whether the route plays an ALSA device, which ``setALSADevice(_:)`` changes.
    package var playsALSADevice: Bool { alsa != nil }

    /// Plays on `device` from the next time the ALSA device opens; nothing when the route is a
    /// sound server's.
    package func setALSADevice(_ device: ALSADevice) {
        guard let alsa else { return }
        alsa.setDevice(
            device.audioConfiguration(sampleRate: alsa.configuration.sampleRate, configuration: configuration))
    }

    /// See ``SpeechPipeline/armIdleTimer()``.
    package func armIdleTimer() {
        pipeline.armIdleTimer()
    }

    /// See ``SpeechPipeline/releaseIdleDevice()``.
    package func releaseIdleDevice() {
        pipeline.releaseIdleDevice()
    }

    /// See ``SpeechPipeline/reportHealth()``.
    package func reportHealth() {
        pipeline.reportHealth()
    }

    /// See ``SpeechPipeline/shutdown(until:)``.
    package func shutdown(until deadline: UInt64) -> String? {
        pipeline.shutdown(until: deadline)
    }
}
