import AudioSinks
import ModuleProtocol
import Playback
import RealModule
import SSML
import Speech
import Synchronization
import System
import UtterEngine
import Voices

/// An utterance on its way to the speaker's thread.
struct Request: Sendable {
    var utterance: Utterance
    var factory: JobFactory
    var continuation: AsyncStream<SpeechEvent>.Continuation
}

/// What the public methods ask of the speaker's thread, and what it tells them back.
final class Inbox: Sendable {
    enum Command: Sendable {
        case speak(Request)
        case pause(SpeechBoundary)
        case resume
        case stop(SpeechBoundary)
        case shutdown
    }

    let wake: EventFD
    private let commands = Locked<[Command]>([])
    /// Utterances queued or playing.
    let speaking = Atomic<Int>(0)
    let paused = Atomic<Bool>(false)

    init() throws(Errno) {
        wake = try EventFD()
    }

    func send(_ command: Command) {
        commands.withLock { $0.append(command) }
        wake.signal()
    }

    func take() -> [Command] {
        commands.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
    }
}

/// The speaker's thread: turns commands into jobs, and the pipeline's events into each
/// utterance's events. Confined to that thread.
final class SpeakerLoop: @unchecked Sendable {
    // @unchecked Sendable: made by `Speaker.init` and from then on touched by the speaker's
    // thread alone.
    private struct Entry {
        var job: UInt64
        /// The index of each Unicode scalar of the utterance's text, and its end.
        var scalarIndices: [String.Index]
        var continuation: AsyncStream<SpeechEvent>.Continuation
    }

    private enum Pause {
        case none
        case pending(SpeechBoundary)
        /// Held: playback goes no further until resumed.
        case paused
    }

    private let pipeline: SpeechPipeline
    private let inbox: Inbox
    private var entries: [Entry] = []
    private var pause = Pause.none
    private var pendingStop: SpeechBoundary?
    private var lastJob: UInt64 = 0
    private var running = true
    /// How often a pause or stop waiting for a word boundary is checked at the least.
    private static let boundaryRecheck: UInt64 = 20_000_000

    init(pipeline: SpeechPipeline, inbox: Inbox) {
        self.pipeline = pipeline
        self.inbox = inbox
    }

    func run() {
        while running {
            var timeout = pipeline.deadline.map { $0 > MonotonicClock.now ? $0 - MonotonicClock.now : 0 }
            // While a pause or stop waits for a word, look again every 20 ms whatever the wake-up
            // said: the word is reached when playback gets there, and a slow process (seen under
            // AddressSanitizer) can find no wake-up due while playback still has the word ahead.
            if awaitedBoundary != nil { timeout = min(timeout ?? Self.boundaryRecheck, Self.boundaryRecheck) }
            _ = poll([pipeline.wake.rawValue, inbox.wake.rawValue], timeout: timeout)
            pipeline.wake.reset()
            inbox.wake.reset()
            for command in inbox.take() { perform(command) }
            guard running else { break }
            pipeline.pump(afterReceiving: movePauseLimit, alsoWakeAt: { self.heldWord()?.position }) { handle($0) }
            reachWordBoundary()
            pipeline.reportHealth()
            pipeline.releaseIdleDevice()
        }
        stopAll()
        _ = pipeline.shutdown(until: MonotonicClock.now + 500_000_000)
    }

    private func perform(_ command: Inbox.Command) {
        switch command {
        case .speak(let request):
            submit(request)
        case .pause(let boundary):
            guard !entries.isEmpty, case .none = pause else { return }
            if boundary == .immediate {
                pipeline.limitPlayback(to: pipeline.sink.playedPosition(at: MonotonicClock.now))
                enterPause()
            } else {
                pause = .pending(boundary)
                movePauseLimit()
            }
        case .resume:
            switch pause {
            case .none: return
            case .pending:
                pause = .none
                pipeline.limitPlayback(to: nil)
            case .paused:
                pause = .none
                inbox.paused.store(false, ordering: .relaxed)
                pipeline.limitPlayback(to: nil)
                entries.first?.continuation.yield(.resumed)
            }
        case .stop(let boundary):
            guard !entries.isEmpty else { return }
            if boundary == .immediate {
                stopAll()
            } else {
                pendingStop = boundary
                movePauseLimit()
            }
        case .shutdown:
            running = false
        }
    }

    private func submit(_ request: Request) {
        let utterance = request.utterance
        var settings = SpeechSettings()
        settings.synthesisVoice = utterance.voice
        settings.language = utterance.language ?? (utterance.voice == nil ? "en-US" : nil)
        settings.rate = Self.scaled((utterance.rate - 0.5) * 200)
        // espeak-ng's pitch goes from 0 to 100 with 50 normal; a doubling is heard as an octave.
        settings.pitch = Self.scaled(100 * Double.log2(min(max(utterance.pitch, 0.5), 2)))
        settings.volume = Self.scaled(200 * min(max(utterance.volume, 0), 1) - 100)
        lastJob += 1
        guard let (made, voice, _) = request.factory.job(
            id: lastJob, kind: .speak, text: utterance.markup, settings: settings)
        else {
            inbox.speaking.wrappingSubtract(1, ordering: .relaxed)
            request.continuation.yield(.cancelled)
            request.continuation.finish()
            return
        }
        var job = made
        job.continuing = !entries.isEmpty
        if let switching = utterance.languageSwitching { job.segmenter.languageSwitching?.isAutomatic = switching }
        // A clip voice with a fallback keeps the text around its clips, and each clip's phrase as
        // its fallback, so the words are the caller's; one without leaves out what no clip says.
        switch voice.kind {
        case .espeak, .neural: job.reportsWords = true
        case .clips(let clips): job.reportsWords = clips.fallbackEngineName != nil
        }
        job.leadingSilence = Self.milliseconds(utterance.preDelay)
        job.trailingSilence = Self.milliseconds(utterance.postDelay)
        let text = utterance.text
        var indices = Array(text.unicodeScalars.indices)
        indices.append(text.endIndex)
        entries.append(Entry(job: job.id, scalarIndices: indices, continuation: request.continuation))
        pipeline.submit(job)
    }

    private static func scaled(_ value: Double) -> Int {
        value.isFinite ? Int(min(max(value, -100), 100).rounded()) : 0
    }

    private static func milliseconds(_ seconds: Double) -> Int {
        seconds.isFinite ? Int(min(max(seconds, 0), 600) * 1000) : 0
    }

    /// While a pause or stop waits for a boundary, keeps playback from passing it.
    private func movePauseLimit() {
        let boundary: SpeechBoundary
        if let pendingStop {
            boundary = pendingStop
        } else if case .pending(let pending) = pause {
            boundary = pending
        } else {
            return
        }
        pipeline.limitPlayback(to: pipeline.tracker.pauseLimit { Self.isBoundary($0, boundary) })
    }

    private static func isBoundary(_ event: SynthesisEvent, _ boundary: SpeechBoundary) -> Bool {
        switch (event, boundary) {
        case (.word, .word), (.mark, .mark): true
        default: false
        }
    }

    /// The boundary a pause or stop waits for, if any.
    private var awaitedBoundary: SpeechBoundary? {
        if let pendingStop { return pendingStop }
        if case .pending(let boundary) = pause { return boundary }
        return nil
    }

    /// The next word, when a pause or stop waits for one: playback holds right before it.
    private func heldWord() -> SynthesisEvent? {
        guard awaitedBoundary == .word else { return nil }
        return pipeline.tracker.pendingEvent { Self.isBoundary($0, .word) }
    }

    /// A word is due only once its first sample is heard, so a pause before it never makes it
    /// due: the boundary is reached when playback has arrived at the word.
    private func reachWordBoundary() {
        guard let word = heldWord(), pipeline.sink.playedPosition(at: MonotonicClock.now) >= word.position else { return }
        if pendingStop != nil {
            stopAll()
        } else {
            enterPause()
        }
    }

    /// A mark is due when everything before it has been heard: the boundary is reached with it.
    private func handle(_ event: SynthesisEvent) {
        deliver(event)
        guard awaitedBoundary == .mark, case .mark = event else { return }
        if pendingStop != nil {
            stopAll()
        } else {
            enterPause()
        }
    }

    private func enterPause() {
        pause = .paused
        inbox.paused.store(true, ordering: .relaxed)
        entries.first?.continuation.yield(.paused)
    }

    private func deliver(_ event: SynthesisEvent) {
        guard let index = entries.firstIndex(where: { $0.job == event.job }) else { return }
        let entry = entries[index]
        switch event {
        case .audioStart:
            entry.continuation.yield(.started)
        case .word(_, let text, _):
            let indices = entry.scalarIndices
            guard text.lowerBound >= 0, text.upperBound < indices.count, !text.isEmpty else { return }
            entry.continuation.yield(.word(indices[text.lowerBound]..<indices[text.upperBound]))
        case .mark(_, let name, _):
            entry.continuation.yield(.mark(name))
        case .end:
            // Counted out before the stream ends, so whoever reads the end sees isSpeaking change.
            inbox.speaking.wrappingSubtract(1, ordering: .relaxed)
            entries.remove(at: index)
            entry.continuation.yield(.finished)
            entry.continuation.finish()
            pipeline.finish(through: event.job)
            if entries.isEmpty {
                // A pause that found no boundary before the end has nothing left to pause.
                if case .pending = pause { pause = .none }
                if pendingStop != nil { pendingStop = nil }
                pipeline.limitPlayback(to: nil)
                pipeline.armIdleTimer()
            }
        case .progress:
            break
        }
    }

    /// Stops the current utterance and cancels the queued ones.
    private func stopAll() {
        pendingStop = nil
        if case .none = pause {} else {
            pause = .none
            inbox.paused.store(false, ordering: .relaxed)
        }
        guard let last = entries.last?.job else { return }
        pipeline.halt(through: last)
        pipeline.limitPlayback(to: nil)
        inbox.speaking.wrappingSubtract(entries.count, ordering: .relaxed)
        for entry in entries {
            entry.continuation.yield(.cancelled)
            entry.continuation.finish()
        }
        entries.removeAll()
        pipeline.armIdleTimer()
    }
}
