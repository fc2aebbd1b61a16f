public import AudioSinks
public import Logging
public import Playback
import SSML
import SoundFiles
import Synchronization
public import Voices
public import System

/// The synth thread: runs every engine call (libespeak-ng, a Piper voice's inference), writes
/// samples into a ``AudioSinks/SampleSink`` and reports marks, words and ends at their sample
/// positions.
///
/// Every engine is driven by one segment loop (Synthesizer+Segments.swift) through
/// ``SynthesisEngine``: ``EspeakSegments`` and ``NeuralSegments``. Events are reported before their
/// samples are written, so playback never passes a mark nobody has seen; a job's words go through
/// its ``Playback/WordAligner``, so each word event is a whole word of the text.
public final class Synthesizer: Sendable {
    private let queue = Locked<[SynthesisJob]>([])
    private let events = Locked<ReportedEvents>(ReportedEvents())
    /// Every job with an id up to this one is cancelled.
    private let cancelledThrough = Atomic<UInt64>(0)
    private let isShuttingDown = Atomic<Bool>(false)
    private let isDevicePreparationRequested = Atomic<Bool>(false)
    private let isDeviceReleaseRequested = Atomic<Bool>(false)
    private let wake: EventFD
    private let controlWake: EventFD
    let sink: any SampleSink
    let logger: Logger
    private let thread = Locked<NamedThread?>(nil)
    private let engineBox: EngineBox
    /// The neural inference under way, which a cancel ends.
    let neuralRun = NeuralRunSlot()
    /// The neural models, loaded off this thread.
    public let neuralModels: NeuralModelStore
    private let japaneseDictionary: String?

    /// Takes over `engine`: from `start()` on, only the synth thread uses it. Reports wake
    /// `controlWake`. Japanese is read with the MeCab dictionary in `japaneseDictionary` (nil:
    /// the first known one installed). `neural` says how many neural models stay loaded.
    public init(
        engine: consuming EspeakEngine, sink: any SampleSink, controlWake: EventFD, logger: Logger,
        japaneseDictionary: String? = nil, neural: NeuralModelStore.Settings = .init()
    ) throws(Errno) {
        self.neuralModels = try NeuralModelStore(settings: neural, logger: logger)
        self.engineBox = EngineBox(engine)
        self.japaneseDictionary = japaneseDictionary
        self.sink = sink
        self.controlWake = controlWake
        self.logger = logger
        self.wake = try EventFD(blocking: true)
    }

    /// Starts the thread.
    public func start() throws(Errno) {
        let synthThread = try NamedThread(name: "utter-synth") { [self] in run() }
        thread.withLock { $0 = synthThread }
    }

    /// Queues a job; it runs after the jobs before it.
    public func submit(_ job: SynthesisJob) {
        queue.withLock { $0.append(job) }
        wake.signal()
        // The synth thread may be writing a stopped job into a full ring: it takes this one now.
        sink.endWaitForRoom()
    }

    /// Opens the audio device ahead of the first message (on this thread: opening can take long).
    public func prepareAudio() {
        isDevicePreparationRequested.store(true, ordering: .releasing)
        wake.signal()
    }

    /// Closes the audio device (on this thread, between jobs) until the next job needs it.
    public func releaseAudio() {
        isDeviceReleaseRequested.store(true, ordering: .releasing)
        wake.signal()
    }

    /// Starts loading `voice`'s model in the background (a voice was chosen), so that the
    /// messages it speaks need not wait for it.
    public func prepare(_ voice: NeuralVoice) {
        neuralModels.prepare(voice)
    }

    /// Cancels `job` and every earlier one: their synthesis stops at the next chunk.
    public func cancel(through job: UInt64) {
        cancelledThrough.max(job, ordering: .releasing)
        neuralRun.cancel(through: job)
        wake.signal()
    }

    /// Removes and returns the events reported since the last call.
    public func takeEvents() -> [SynthesisEvent] {
        events.withLock { reported in
            defer { reported.pending.removeAll(keepingCapacity: true) }
            return reported.pending
        }
    }

    /// Stops the thread after the current chunk and waits for it until `deadline` (monotonic
    /// nanoseconds); false if it is still running then (held by a device or engine call that does
    /// not return), in which case nothing it uses may be freed.
    @discardableResult
    public func shutdown(until deadline: UInt64 = .max) -> Bool {
        isShuttingDown.store(true, ordering: .releasing)
        cancelledThrough.store(.max, ordering: .releasing)
        neuralRun.cancel(through: .max)
        wake.signal()
        // A thread waiting for room in a full ring sees the shutdown now, not when its wait ends.
        sink.endWaitForRoom()
        // The synth thread is waited for first: it waits for a model in short steps, while a
        // model load cannot be interrupted and may outlast the deadline.
        neuralModels.beginShutdown()
        let synthStopped = thread.withLock({ $0 })?.join(until: deadline) ?? true
        return neuralModels.shutdown(until: deadline) && synthStopped
    }

    private func run() {
        let espeak = EspeakSegments(engine: engineBox.engine, logger: logger)
        var clips = ClipCache()
        let readers = TextReaders(logger: logger, japaneseDictionary: japaneseDictionary)
        var models = NeuralModels(store: neuralModels)
        var paces = NeuralPace()
        while !isShuttingDown.load(ordering: .acquiring) {
            if isDevicePreparationRequested.exchange(false, ordering: .acquiringAndReleasing) {
                do {
                    try sink.prepare()
                    if let notice = sink.takeNotice() { logger.notice("\(notice)") }
                } catch {
                    logger.warning(
                        "cannot open the audio device yet; trying again with the first message",
                        metadata: ["error": "\(error)"])
                }
            }
            let job = queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            // Only between jobs: a job queued meanwhile keeps the device it is about to use.
            if isDeviceReleaseRequested.exchange(false, ordering: .acquiringAndReleasing) && job == nil {
                if sink.release() { logger.debug("idle: audio device closed until the next message") }
            }
            guard let job else {
                wake.reset()  // blocking: sleeps until a job, a request or the shutdown
                continue
            }
            guard !isCancelled(job.id) else { continue }
            // The text's words, made of the engine's as the job reports them.
            let words = job.reportsWords ? WordAligner(text: SSMLReader.textContent(of: job.ssml)) : nil
            events.withLock { $0.words = words }
            let start = beginJob(job)
            if !job.soundFiles.isEmpty {
                play(job, from: start, clips: &clips, sampleRate: espeak.sampleRate)
            } else if let voice = job.neural, !echoHandedOver(job, voice: voice, paces: &paces) {
                models.isCancelled = { self.isCancelled(job.id) }
                switch models.model(for: voice) {
                case .success((let model, let control)):
                    let neural = NeuralSegments(
                        model: model, control: control, espeak: espeak.engine, run: neuralRun, logger: logger)
                    let began = MonotonicClock.now
                    // A Kokoro voice reads Japanese through the kana of Utter's reader, as espeak-ng does.
                    let segments = job.segmenter.lazySegments(of: job.ssml, reader: model.readsKana ? readers : nil)
                    speak(job, segments: segments, from: start, engine: neural, espeak: espeak, clips: &clips)
                    // (A device reopened mid-message may have moved the write position back.)
                    let written = sink.writePosition
                    if !isCancelled(job.id), written > start {
                        paces.record(
                            model: voice.model, nanoseconds: MonotonicClock.now - began, samples: written - start,
                            sampleRate: espeak.sampleRate)
                    }
                case .failure(let error):
                    logger.error("neural voice unavailable, the message is spoken by \(job.engineVoice): \(error)")
                    speak(job, from: start, espeak: espeak, readers: readers, clips: &clips)
                }
                models.putDown()
            } else {
                speak(job, from: start, espeak: espeak, readers: readers, clips: &clips)
            }
        }
    }

    /// Whether a key or character on a neural voice is said by its espeak-ng voice instead
    /// (`NeuralEcho auto`), because the neural one would be heard too late; logged once per voice.
    private func echoHandedOver(_ job: SynthesisJob, voice: NeuralVoice, paces: inout NeuralPace) -> Bool {
        guard let budget = job.neuralEchoBudget else { return false }
        let (handsOver, why) = paces.handsOver(model: voice.model, budget: budget)
        if let why {
            logger.notice("keys and characters on \(voice.model) are said by \(job.engineVoice): \(why)")
        }
        return handsOver
    }

    /// Speaks `job` with its espeak-ng voice, its text read by `readers` where the voice cannot
    /// read it as written (Japanese kanji, Mandarin Han).
    private func speak(
        _ job: SynthesisJob, from start: UInt64, espeak: EspeakSegments, readers: TextReaders, clips: inout ClipCache
    ) {
        // A reader that cannot open says why before the segment it was asked for is spoken.
        let segments = sequence(state: job.segmenter.lazySegments(of: job.ssml, reader: readers)) { made in
            defer { readers.logProblems() }
            return made.next()
        }
        speak(job, segments: segments, from: start, engine: espeak, espeak: espeak, clips: &clips)
    }

    /// Starts the job's audio; returns its start position. Without a device it still starts (its
    /// samples are discarded as if played, so its events complete) and the reason is logged.
    private func beginJob(_ job: SynthesisJob) -> UInt64 {
        defer { if let notice = sink.takeNotice() { logger.notice("\(notice)") } }
        do {
            return try sink.beginJob(job.id, continuing: job.continuing)
        } catch {
            logger.error("audio output unavailable, the message is reported as played", metadata: ["error": "\(error)"])
            return sink.writePosition
        }
    }

    func isCancelled(_ job: UInt64) -> Bool {
        cancelledThrough.load(ordering: .acquiring) >= job
    }

    func report(_ new: [SynthesisEvent]) {
        guard !new.isEmpty else { return }
        events.withLock { reported in
            let new = reported.words?.align(new) ?? new
            // Only the newest progress matters: keep one.
            if case .progress = reported.pending.last, case .progress = new.first { reported.pending.removeLast() }
            reported.pending.append(contentsOf: new)
        }
        controlWake.signal()
    }

    /// The words a clip of `segment` says, spread over its `count` samples from the write
    /// position, for a job that reports words.
    func clipWords(_ segment: SpeechSegment, of job: SynthesisJob, count: Int) -> [SynthesisEvent] {
        guard job.reportsWords,
            let text = MarkPlacer(job: job.id, segment: segment, base: 0, placesWords: true).textRange()
        else { return [] }
        let start = sink.writePosition
        return events.withLock { $0.words?.spread(text, over: count, job: job.id, from: start) } ?? []
    }

}

extension Synthesizer {
    /// The clip an `<audio src>` names, or nil (logged) when none of its candidate files plays.
    func sound(
        _ source: String, words: Int, of job: SynthesisJob, clips: inout ClipCache, sampleRate: Int, hasFallback: Bool
    ) -> SoundClip? {
        let candidates = SoundLocator.candidates(for: source, folders: job.soundFolders)
        let why: String
        let found = clips.firstClip(among: candidates, sampleRate: sampleRate)
        logNotices(&clips)
        switch found {
        case .success(var clip):
            // Paced here on the synth thread, never on the render thread.
            guard abs(job.speed - 1) > 0.001 else { return clip }
            let span = SpeedChange.soundSpan(of: clip.samples)
            let speed = ClipPace.speed(
                job.speed, maximumSpeed: job.maximumSpeed,
                normalRate: Double(job.parameters.wordsPerMinute) / job.speed, words: words,
                soundSeconds: Double(span?.count ?? 0) / Double(sampleRate),
                marginSeconds: Double(clip.samples.count - (span?.count ?? 0)) / Double(sampleRate))
            if let paced = SpeedChange.clip(clip.samples, speed: speed, sampleRate: sampleRate) {
                clip.samples = paced
            } else {
                logger.error(
                    "libsonic cannot change the speed (out of memory); \(source.debugDescription) is played as recorded"
                )
            }
            return clip
        case .failure(let problem):
            why = candidates.isEmpty ? "not a file path or a name in the sound folders" : problem.description
        }
        logger.warning(
            "audio \(source.debugDescription) not played: \(why); \(hasFallback ? "speaking its fallback text" : "it has no fallback text")"
        )
        return nil
    }

    fileprivate func logNotices(_ clips: inout ClipCache) {
        for notice in clips.notices { logger.warning("\(notice)") }
        clips.notices.removeAll()
    }

    /// Plays the first of the job's sound files that can be read; ends the job in any case.
    fileprivate func play(_ job: SynthesisJob, from start: UInt64, clips: inout ClipCache, sampleRate: Int) {
        report([.audioStart(job: job.id, position: start)])
        let found = clips.firstClip(among: job.soundFiles, sampleRate: sampleRate)
        logNotices(&clips)
        switch found {
        case .success(let clip):
            var writer = JobWriter(job: job, sink: sink)
            let end = sink.writePosition + UInt64(clip.samples.count)
            report([.progress(job: job.id, position: end)])
            let complete = clip.samples.withUnsafeBufferPointer { samples in
                writer.write(samples, isCancelled: { self.isCancelled(job.id) })
            }
            guard complete else { return }
        case .failure(let problem):
            logger.warning("sound icon not played: \(problem)")
        }
        guard !isCancelled(job.id) else { return }
        report([.end(job: job.id, position: sink.writePosition)])
    }
}

/// What the synth thread has reported and the control thread not yet taken, and the words of the
/// job under way, which every report of it goes through.
private struct ReportedEvents {
    var pending: [SynthesisEvent] = []
    var words: WordAligner?
}

/// Scales samples by the job's gain and writes them into the sink.
struct JobWriter {
    let job: SynthesisJob
    let sink: any SampleSink
    var scratch = [Int16](repeating: 0, count: 4096)

    init(job: SynthesisJob, sink: any SampleSink) {
        self.job = job
        self.sink = sink
    }

    mutating func write(_ samples: UnsafeBufferPointer<Int16>, isCancelled: () -> Bool) -> Bool {
        guard !samples.isEmpty else { return true }
        if job.gain >= 0.999 {
            return sink.write(samples, isCancelled: isCancelled)
        }
        var offset = 0
        while offset < samples.count {
            let count = min(scratch.count, samples.count - offset)
            let gain = job.gain
            let ok = scratch.withUnsafeMutableBufferPointer { buffer -> Bool in
                for index in 0..<count {
                    buffer[index] = Int16(Float(samples[offset + index]) * gain)
                }
                return sink.write(UnsafeBufferPointer(rebasing: buffer[0..<count]), isCancelled: isCancelled)
            }
            guard ok else { return false }
            offset += count
        }
        return true
    }
}

/// Holds the engine for the synth thread.
///
/// `@unchecked Sendable` is sound because the engine is touched by exactly one thread: the
/// creating thread hands it over in `Synthesizer.init` and never keeps a reference, and from
/// `start()` on only the synth thread uses it.
private final class EngineBox: @unchecked Sendable {
    let engine: EspeakEngine
    init(_ engine: consuming EspeakEngine) { self.engine = engine }
}
