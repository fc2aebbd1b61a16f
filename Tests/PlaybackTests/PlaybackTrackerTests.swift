import Playback
import Testing

/// The tracker, event by event, with the heard position passed as a value.
@Suite struct PlaybackTrackerTests {
    @Test func `a start is due once its first sample is heard, a mark once every sample before it is`() {
        var tracker = PlaybackTracker()
        tracker.track(1)
        tracker.receive([
            .audioStart(job: 1, position: 100), .mark(job: 1, name: "a", position: 150),
            .progress(job: 1, position: 400),
        ])
        #expect(tracker.wakePosition == 101)
        #expect(tracker.nextDue(heard: 100) == nil)
        #expect(tracker.nextDue(heard: 101) == .audioStart(job: 1, position: 100))
        #expect(tracker.wakePosition == 150)
        #expect(tracker.nextDue(heard: 149) == nil)
        #expect(tracker.nextDue(heard: 150) == .mark(job: 1, name: "a", position: 150))
        #expect(tracker.wakePosition == nil)
        #expect(tracker.knownProgress == 400)
    }

    @Test func `events come out in order, several at once when the position jumped past them`() {
        var tracker = PlaybackTracker()
        tracker.track(3)
        tracker.receive([
            .audioStart(job: 3, position: 0), .word(job: 3, text: 0..<5, position: 0),
            .mark(job: 3, name: "x", position: 10), .end(job: 3, position: 20),
        ])
        var due: [SynthesisEvent] = []
        while let event = tracker.nextDue(heard: 1000) { due.append(event) }
        #expect(
            due == [
                .audioStart(job: 3, position: 0), .word(job: 3, text: 0..<5, position: 0),
                .mark(job: 3, name: "x", position: 10), .end(job: 3, position: 20),
            ])
    }

    @Test func `nothing waits past its job's end, and progress is never handed out`() {
        var tracker = PlaybackTracker()
        tracker.track(1)
        // A mark placed past the end (the engine's last chunk) is due with the end.
        tracker.receive([.mark(job: 1, name: "late", position: 900), .progress(job: 1, position: 800)])
        #expect(tracker.wakePosition == 900)
        tracker.receive([.end(job: 1, position: 800)])
        #expect(tracker.threshold(of: .mark(job: 1, name: "late", position: 900)) == 800)
        #expect(tracker.nextDue(heard: 800) == .mark(job: 1, name: "late", position: 900))
        #expect(tracker.nextDue(heard: 800) == .end(job: 1, position: 800))
        #expect(tracker.nextDue(heard: .max) == nil)
    }

    @Test func `events of jobs not tracked, or forgotten, are dropped`() {
        var tracker = PlaybackTracker()
        tracker.track(2)
        tracker.receive([.audioStart(job: 1, position: 0), .audioStart(job: 2, position: 10)])
        #expect(tracker.nextDue(heard: 100) == .audioStart(job: 2, position: 10))
        tracker.receive([.mark(job: 2, name: "a", position: 20)])
        tracker.forget(through: 2)
        #expect(tracker.currentJob == nil)
        #expect(tracker.nextDue(heard: 100) == nil)
        #expect(tracker.knownProgress == 0)
        tracker.receive([.mark(job: 2, name: "b", position: 30)])
        #expect(tracker.nextDue(heard: 100) == nil)
    }

    @Test func `queued jobs play back to back: the second one's events wait for their own samples`() {
        var tracker = PlaybackTracker()
        tracker.track(1)
        tracker.track(2)
        tracker.receive([.audioStart(job: 1, position: 0), .end(job: 1, position: 500)])
        tracker.receive([.audioStart(job: 2, position: 500), .end(job: 2, position: 900)])
        #expect(tracker.currentJob == 1)
        #expect(tracker.nextDue(heard: 499) == .audioStart(job: 1, position: 0))
        #expect(tracker.nextDue(heard: 499) == nil)
        #expect(tracker.nextDue(heard: 500) == .end(job: 1, position: 500))
        tracker.forget(through: 1)
        #expect(tracker.currentJob == 2)
        #expect(tracker.nextDue(heard: 500) == nil)
        #expect(tracker.nextDue(heard: 501) == .audioStart(job: 2, position: 500))
        #expect(tracker.pauseLimit { _ in false } == 900)
    }

    @Test func `a pause limit lands on the next boundary, else on what the synth thread has reported`() {
        var tracker = PlaybackTracker()
        tracker.track(1)
        let isSpdMark: (SynthesisEvent) -> Bool = {
            if case .mark(_, let name, _) = $0 { return name.hasPrefix("__spd_") }
            return false
        }
        tracker.receive([.audioStart(job: 1, position: 0), .progress(job: 1, position: 2205)])
        #expect(tracker.pauseLimit(where: isSpdMark) == 2205)
        tracker.receive([.mark(job: 1, name: "word", position: 3000), .progress(job: 1, position: 4410)])
        #expect(tracker.pauseLimit(where: isSpdMark) == 4410)
        tracker.receive([.mark(job: 1, name: "__spd_1", position: 5000), .progress(job: 1, position: 6615)])
        #expect(tracker.pauseLimit(where: isSpdMark) == 5000)
        // Once the boundary has been handed out, the next one (or the progress) counts.
        while tracker.nextDue(heard: 5000) != nil {}
        #expect(tracker.pauseLimit(where: isSpdMark) == 6615)
        tracker.receive([.end(job: 1, position: 7000)])
        #expect(tracker.pauseLimit(where: isSpdMark) == 7000)
    }

    @Test func `a word is due once its first sample is heard, so a pause right before it holds it back`() {
        var tracker = PlaybackTracker()
        tracker.track(1)
        tracker.receive([
            .audioStart(job: 1, position: 100), .word(job: 1, text: 0..<5, position: 100),
            .mark(job: 1, name: "m", position: 900), .word(job: 1, text: 6..<11, position: 900),
            .progress(job: 1, position: 2000),
        ])
        let isWord: (SynthesisEvent) -> Bool = { if case .word = $0 { true } else { false } }
        #expect(tracker.pauseLimit(where: isWord) == 100)
        #expect(tracker.pendingEvent(where: isWord) == .word(job: 1, text: 0..<5, position: 100))
        #expect(tracker.nextDue(heard: 100) == nil)
        #expect(tracker.nextDue(heard: 101) == .audioStart(job: 1, position: 100))
        #expect(tracker.nextDue(heard: 101) == .word(job: 1, text: 0..<5, position: 100))
        #expect(tracker.pauseLimit(where: isWord) == 900)
        // Held at the second word: the mark before it is reached, the word is not.
        #expect(tracker.nextDue(heard: 900) == .mark(job: 1, name: "m", position: 900))
        #expect(tracker.nextDue(heard: 900) == nil)
        #expect(tracker.nextDue(heard: 901) == .word(job: 1, text: 6..<11, position: 900))
    }

    @Test func `a mark where its job starts is held one sample later, so the start and the mark come out`() {
        var tracker = PlaybackTracker()
        tracker.track(1)
        tracker.receive([
            .audioStart(job: 1, position: 50), .mark(job: 1, name: "__spd_0", position: 50),
            .progress(job: 1, position: 500),
        ])
        let isMark: (SynthesisEvent) -> Bool = { if case .mark = $0 { true } else { false } }
        #expect(tracker.pauseLimit(where: isMark) == 51)
        #expect(tracker.nextDue(heard: 51) == .audioStart(job: 1, position: 50))
        #expect(tracker.pauseLimit(where: isMark) == 50)
        #expect(tracker.nextDue(heard: 51) == .mark(job: 1, name: "__spd_0", position: 50))
    }

    @Test func `a long message compacts its queue without losing an event`() {
        var tracker = PlaybackTracker()
        tracker.track(1)
        tracker.receive((0..<10_000).map { .mark(job: 1, name: "\($0)", position: UInt64($0)) })
        var names: [String] = []
        for heard in stride(from: UInt64(0), to: 10_010, by: 7) {
            while let event = tracker.nextDue(heard: heard) {
                if case .mark(_, let name, _) = event { names.append(name) }
            }
        }
        #expect(names.count == 10_000)
        #expect(names == (0..<10_000).map { "\($0)" }, "first mismatch at \(zip(names, 0...).first { $0.0 != "\($0.1)" }.map { "\($0)" } ?? "none")")
    }
}
