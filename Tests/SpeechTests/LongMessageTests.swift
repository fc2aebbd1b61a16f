import AudioSinks
import Glibc
import Logging
import Playback
import SSML
import Speech
import System
import TestSupport
import Testing

/// A store that notes in the log when the first samples of the run reach it, so that the log
/// shows the order of reading and sound.
private final class NotingStore: SampleStore {
    let log: LogLines
    private let stored = Locked<Int>(0)

    init(log: LogLines) { self.log = log }

    var count: Int { stored.withLock { $0 } }

    func append(_ samples: UnsafeBufferPointer<Int16>) -> (any Error)? {
        let first = stored.withLock { count in
            defer { count += samples.count }
            return count == 0 && !samples.isEmpty
        }
        if first { log.lines.withLock { $0.append("first samples") } }
        return nil
    }
}

/// Issue 32: a message's segments are made as they are spoken, so its first samples are written
/// before its text has been read through. Observed through the order of the synth thread's log
/// (it says, at debug level, when a message's text was read to its end) and the sink's first
/// samples, never through time.
@Suite(.serialized)
struct LongMessageTests {
    private let log = LogLines()
    private let wake = try! EventFD()

    private func withSynthesizer(_ body: (Synthesizer, NotingStore) throws -> Void) async throws {
        await EngineTurns.take()
        defer { EngineTurns.release() }
        let engine = try EspeakEngine()
        let store = NotingStore(log: log)
        let sink = RenderedSink(store: store, sampleRate: engine.sampleRate, wake: wake)
        let lines = log
        var logger = Logger(label: "test") { _ in CapturingLogHandler(sink: lines, logLevel: .debug) }
        logger.logLevel = .debug
        let synthesizer = try Synthesizer(engine: engine, sink: sink, controlWake: wake, logger: logger)
        try synthesizer.start()
        defer { synthesizer.shutdown() }
        try body(synthesizer, store)
    }

    private func job(_ id: UInt64, _ ssml: String) -> SynthesisJob {
        SynthesisJob(id: id, ssml: ssml, engineVoice: "gmw/en-US", variant: nil, parameters: EngineParameters(), gain: 1)
    }

    /// Waits until `done` says so; false after 60 s.
    private func wait(until done: () -> Bool) -> Bool {
        let deadline = monotonicSeconds() + 60
        while !done() {
            if monotonicSeconds() > deadline { return false }
            usleep(2000)
        }
        return true
    }

    /// Submits `long`, cancels it once its first samples came (calling `atFirstSamples` then), and
    /// speaks a short message after it: the log's lines on first samples and texts read through.
    private func heardThenCancelled(
        _ long: SynthesisJob, by synthesizer: Synthesizer, _ store: NotingStore, atFirstSamples: () -> Void = {}
    ) -> [String] {
        synthesizer.submit(long)
        #expect(wait { store.count > 0 }, "the first samples came")
        atFirstSamples()
        synthesizer.cancel(through: long.id)
        // The next message speaks once the synth thread has let go of the long one.
        let next = long.id + 1
        synthesizer.submit(job(next, "<speak>Next.</speak>"))
        var events: [SynthesisEvent] = []
        #expect(wait { events += synthesizer.takeEvents(); if case .end(next, _) = events.last { return true }; return false })
        return log.all.filter { $0 == "first samples" || $0.contains("read to the end") }
    }

    @Test func `a short message is read to its end before its first samples`() async throws {
        try await withSynthesizer { synthesizer, store in
            synthesizer.submit(job(1, "<speak>Short and sweet.</speak>"))
            var events: [SynthesisEvent] = []
            #expect(wait { events += synthesizer.takeEvents(); if case .end = events.last { return true }; return false })
            let lines = log.all.filter { $0 == "first samples" || $0.contains("read to the end") }
            #expect(lines == ["debug: message 1: its text read to the end, 1 segments", "first samples"])
            #expect(store.count > 11025)
        }
    }

    @Test func `a 10 MB message is heard before its text is read through`() async throws {
        let sentence = "All work and no play makes Jack a dull boy, said the narrator once more. "
        let text = "<speak>" + String(repeating: sentence, count: 140_000) + "</speak>"
        #expect(text.utf8.count > 10_000_000)
        try await withSynthesizer { synthesizer, store in
            // The long message's text was never read through: its samples came first, and its
            // cancellation ended the reading.
            #expect(
                heardThenCancelled(job(2, text), by: synthesizer, store)
                    == ["first samples", "debug: message 3: its text read to the end, 1 segments"])
        }
    }

    @Test func `a 10 MB message on a clip voice is heard before its phrases are all found`() async throws {
        let sentence = "All work and no play makes Jack a dull boy, said the narrator once more. "
        let text = "<speak>" + String(repeating: sentence, count: 140_000) + "</speak>"
        let found = Locked(0)
        var long = job(4, text)
        long.segmenter.clips = ClipPhrases(keepsOtherText: true) { text in
            let phrases = text.ranges(of: "dull boy").map { ($0, "/nonexistent/dull-boy.wav") }
            found.withLock { $0 += phrases.count }
            return phrases
        }
        try await withSynthesizer { synthesizer, store in
            var foundAtFirstSamples = 0
            #expect(
                heardThenCancelled(long, by: synthesizer, store) { foundAtFirstSamples = found.withLock { $0 } }
                    == ["first samples", "debug: message 5: its text read to the end, 1 segments"])
            // Searched a run at a time: a few sentences' phrases, not the message's 140,000.
            #expect(foundAtFirstSamples > 0 && foundAtFirstSamples < 1000, "\(foundAtFirstSamples) phrases found")
        }
    }
}
