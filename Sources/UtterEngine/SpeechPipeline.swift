import ALSAOutput
package import AudioSinks
package import Configuration
package import Logging
package import Playback
package import Speech
package import System
package import Voices

/// The engine every front-end shares: the synth thread writing into a sample sink, and the
/// tracker that hands out each event when its sample is heard.
///
/// Used by one control thread (the module's poll loop, a `Speaker`'s thread), which polls
/// ``wake`` and calls ``pump(afterReceiving:alsoWakeAt:_:)`` whenever it fires or ``deadline`` passes.
///
/// It plays on a ``SoundOutput`` (an ALSA device, a sound server's backend, a file), whose sink
/// ``SoundSession`` makes: the one place a backend is chosen. A `Speaker` drives it in jobs; the
/// module, a server front end, in ``SpeechMessage`` and ``MessageEvent`` (each message's start,
/// marks and end as they are heard), never in the engine's jobs. The module's output comes from a
/// ``SoundSession/Route``, which `utter status` decides the same way.
package final class SpeechPipeline {
    /// Signalled by the synth thread and the sink whenever there may be something to pump.
    package let wake: EventFD
    package let synthesizer: Synthesizer
    package let sink: any SampleSink
    package private(set) var tracker = PlaybackTracker()
    /// What the sink said when it started (a refused real-time priority), for the log.
    package let startNotice: String?
    private let logger: Logger
    private var eventDeadline: UInt64?
    private var idleDeadline: UInt64?
    private var reportedHealth = SinkHealth()
    /// Seconds without speech after which the sink closes its device; 0 never.
    private let idleSeconds: Int
    /// The sink when it is an ALSA device, which ``setALSADevice(_:)`` changes.
    private let alsa: ALSASink?
    private let configuration: UtterConfiguration

    /// Starts the synth thread on `engine`, playing on (or writing to) `output` with
    /// `configuration`'s audio, Japanese dictionary and neural model settings. With `opening`,
    /// the output is opened now, so that one that does not open is reported here
    /// (``SoundOutput/Failure``) rather than by silence.
    ///
    /// `waitsForModels`: a message on a neural voice waits for its model however long it loads,
    /// where a screen reader's (the module's) is spoken by the fallback voice after a second.
    package init(
        engine: consuming VoiceEngine, output: SoundOutput, configuration: UtterConfiguration, logger: Logger,
        opening: Bool = false, waitsForModels: Bool = false
    ) throws {
        let wake = try EventFD()
        let sink = try SoundSession.sink(
            for: output, configuration: configuration, sampleRate: engine.engine.sampleRate, wake: wake)
        if opening {
            do {
                try sink.prepare()
            } catch {
                throw SoundOutput.Failure.unavailable(reason: "\(error)")
            }
        }
        var neural = NeuralModelStore.Settings(
            loadedLimit: configuration.neuralVoicesLoaded, idleSeconds: configuration.neuralIdleSeconds)
        if case .file = output {
            // A file has no listener waiting: its speech waits for the model however long it
            // loads, and is written in chunks of 2 s rather than 60 ms. Each chunk is a write
            // that brings the header up to date and wakes the control thread: for a 1,266 s
            // text, 0.4 s chunks made 53,000 system calls and 5,800 wakeups (0.16 s of system
            // time), 2 s chunks make 17,000 and 1,600 (0.085 s), as many calls as espeak-ng -w.
            neural.readyWait = .max
            do {
                try engine.engine.useChunks(ofMilliseconds: 2000)
            } catch {
                logger.warning("\(error); the file is written in smaller chunks")
            }
        }
        if waitsForModels { neural.readyWait = .max }
        let alsa = sink as? ALSASink
        self.wake = wake
        self.sink = sink
        self.logger = logger
        self.alsa = alsa
        self.configuration = configuration
        // A corked or sleeping stream costs nothing in silence, nor does a file: only an ALSA
        // device is closed when idle.
        self.idleSeconds = alsa != nil ? configuration.audioIdleSeconds : 0
        self.startNotice = sink.start()
        self.synthesizer = try Synthesizer(
            engine: engine.engine, sink: sink, controlWake: wake, logger: logger,
            japaneseDictionary: configuration.japaneseDictionary, neural: neural)
        try synthesizer.start()
    }

    /// When the control thread must pump again even if nothing wakes it (``MonotonicClock``
    /// nanoseconds): the next event's sample time on the device clock, or the idle release.
    package var deadline: UInt64? {
        [eventDeadline, idleDeadline].compactMap { $0 }.min()
    }

    /// Queues `job` for synthesis and tracks its events.
    package func submit(_ job: SynthesisJob) {
        idleDeadline = nil
        tracker.track(job.id)
        synthesizer.submit(job)
    }

    /// Silences `job` and every earlier one now: synthesis stops, what the sink holds of them is
    /// dropped, and their pending events are forgotten.
    package func halt(through job: UInt64) {
        synthesizer.cancel(through: job)
        sink.stop(job: job)
        tracker.forget(through: job)
    }

    /// Forgets `job` and every earlier one, which ended.
    package func finish(through job: UInt64) {
        tracker.forget(through: job)
    }

    /// Keeps playback from passing `position` (nil lifts the limit).
    package func limitPlayback(to position: UInt64?) {
        sink.limitPlayback(to: position)
    }

    /// Keeps every sample not written yet from being heard until ``limitPlayback(to:)`` moves or
    /// lifts the limit: what is still queued of earlier jobs plays (or fades out) as before.
    package func holdPlayback() {
        sink.limitPlayback(to: sink.writePosition)
    }

    /// Takes the synth thread's new events, calls `received` (to move a pause limit), then hands
    /// `handle` every event whose sample has been heard, in order. `handle` may halt or finish
    /// jobs; events of forgotten jobs are not handed out. The pipeline wakes again when the next
    /// event is due, or when `alsoWakeAt()` is heard if that comes first (where a pause holds).
    package func pump(
        afterReceiving received: () -> Void = {}, alsoWakeAt: () -> UInt64? = { nil },
        _ handle: (SynthesisEvent) -> Void
    ) {
        eventDeadline = nil
        tracker.receive(synthesizer.takeEvents())
        received()
        while true {
            // Where the device is now, between the render thread's readings: events go out when
            // their sample is heard, not at the next period boundary.
            let now = MonotonicClock.now
            let played = sink.playedPosition(at: now)
            while let event = tracker.nextDue(heard: played) {
                logHeard(event, played: played)
                handle(event)
            }
            let wanted = [tracker.wakePosition, alsoWakeAt()].compactMap { $0 }.filter { $0 > played }
            guard let target = wanted.min() else { return }
            sink.notify(whenPlayedReaches: target)
            // A crossing between the read above and setting the threshold would be missed: look again.
            if sink.playedPosition(at: MonotonicClock.now) >= target { continue }
            // The sink's wake is the fallback (a device that is not running yet, or one that
            // stalls); the deadline is when the device clock says the sample will be heard.
            eventDeadline = sink.nanoseconds(untilPlayed: target, at: now).map { now + $0 }
            return
        }
    }

    /// Where each event sat (`sample`), where the device was when it went out (`device`), and by how
    /// many samples that was past its due point (`late`): how exact marks are, read off a log (the
    /// module's at `LogLevel 5`).
    private func logHeard(_ event: SynthesisEvent, played: UInt64) {
        let what: String
        switch event {
        case .audioStart: what = "begin"
        case .mark(_, let name, _): what = "mark \(name.debugDescription)"
        case .end: what = "end"
        case .word, .progress: return
        }
        let target = tracker.threshold(of: event)
        logger.debug(
            "\(what) heard",
            metadata: [
                "message": "\(event.job)", "sample": "\(event.position)", "device": "\(played)",
                "late": "\(played &- target)",
            ])
    }

    /// Starts loading `voice`'s model in the background, so its first message need not wait for it.
    package func prepare(_ voice: NeuralVoice) {
        synthesizer.prepare(voice)
    }

    /// Has the synth thread open the audio output before the first message needs it.
    package func prepareAudio() {
        synthesizer.prepareAudio()
    }

    /// Whether the pipeline plays an ALSA device, which ``setALSADevice(_:)`` changes.
    package var playsALSADevice: Bool { alsa != nil }

    /// Plays on `device` from the next time the ALSA device opens; nothing when the output is not
    /// an ALSA device.
    package func setALSADevice(_ device: ALSADevice) {
        guard let alsa else { return }
        alsa.setDevice(
            device.audioConfiguration(sampleRate: alsa.configuration.sampleRate, configuration: configuration))
    }

    /// Starts counting the idle time after which the device is closed.
    package func armIdleTimer() {
        guard idleSeconds > 0 else { return }
        idleDeadline = MonotonicClock.now + UInt64(idleSeconds) * 1_000_000_000
    }

    /// Closes the device once the pipeline has been idle long enough.
    package func releaseIdleDevice() {
        guard let deadline = idleDeadline, tracker.currentJob == nil, MonotonicClock.now >= deadline else { return }
        idleDeadline = nil
        synthesizer.releaseAudio()
    }

    /// Logs what changed in the sink's health since the last look.
    package func reportHealth() {
        let health = sink.health
        guard health != reportedHealth else { return }
        if health.underruns != reportedHealth.underruns {
            logger.notice(
                "audio underruns",
                metadata: ["total": "\(health.underruns)", "new": "\(health.underruns - reportedHealth.underruns)"])
        }
        if health.fadedStops != reportedHealth.fadedStops { logger.debug("stop faded out over 4 ms") }
        if health.cutStops != reportedHealth.cutStops {
            logger.debug("stop cut the sound at once: the device cannot take back what it has queued")
        }
        if health.failures != reportedHealth.failures {
            logger.error(
                "audio device failed: \(health.lastFailure ?? "unknown error"); the message is reported as played, the device is reopened for the next one"
            )
        }
        reportedHealth = health
    }

    /// Stops the synth thread and the sink, waiting for them until `deadline`; names what is
    /// still stuck in a device or engine call then (nothing it uses is freed), or nil.
    package func shutdown(until deadline: UInt64) -> String? {
        // The sink's thread can stop by itself even if the synth thread is stuck opening a device:
        // it keeps a share of the time, so a stuck synth thread does not leave it unjoined.
        let now = MonotonicClock.now
        let sinkShare = deadline > now ? (deadline - now) / 5 : 0
        let synthStopped = synthesizer.shutdown(until: deadline - sinkShare)
        let sinkStopped = sink.shutdown(until: deadline)
        if synthStopped && sinkStopped { return nil }
        return synthStopped ? "audio output" : sinkStopped ? "synth thread" : "synth thread and audio output"
    }
}
