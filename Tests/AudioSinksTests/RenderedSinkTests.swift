import AudioSinks
import System
import TestSupport
import Testing

/// A recognisable ramp, so that samples out of place show.
private func ramp(_ count: Int, from start: Int = 0) -> [Int16] {
    (start..<(start + count)).map { Int16(truncatingIfNeeded: $0 &* 7) }
}

extension RenderedSink {
    fileprivate func write(_ samples: [Int16], isCancelled: () -> Bool = { false }) -> Bool {
        samples.withUnsafeBufferPointer { write($0, isCancelled: isCancelled) }
    }
}

/// A store whose every append fails, as a sound file on a full disk does.
private struct FailingStore: SampleStore {
    struct Full: Error, CustomStringConvertible {
        var description: String { "no space left" }
    }

    func append(_ samples: UnsafeBufferPointer<Int16>) -> (any Error)? { Full() }
}

/// Rendering as fast as the engine goes: a sample is heard once stored, positions are absolute,
/// and a pause or a stop acts on what is written next.
@Suite struct RenderedSinkTests {
    @Test func `samples are stored in order and heard once written, across jobs`() throws {
        let sink = RenderedSink(store: MemoryStore(), sampleRate: 22050, wake: try EventFD())
        #expect(sink.start() == nil && sink.sampleRate == 22050)
        #expect(try sink.beginJob(1, continuing: false) == 0)
        #expect(sink.write(ramp(100)))
        #expect(sink.writePosition == 100 && sink.playedPosition(at: MonotonicClock.now) == 100)
        #expect(try sink.beginJob(2, continuing: false) == 100, "nothing is left unheard to drop")
        #expect(sink.write(ramp(50, from: 100)))
        #expect(sink.store.contents == ramp(150))
        #expect(sink.nanoseconds(untilPlayed: 200, at: MonotonicClock.now) == nil, "no clock runs")
        #expect(!sink.release() && sink.takeNotice() == nil && sink.health == SinkHealth())
    }

    @Test func `a wake comes when the position asked for is heard, at once if it already was`() throws {
        let wake = try EventFD()
        let sink = RenderedSink(store: MemoryStore(), sampleRate: 22050, wake: wake)
        _ = try sink.beginJob(1, continuing: false)
        sink.notify(whenPlayedReaches: 150)
        #expect(sink.write(ramp(149)))
        #expect(!wake.reset(), "one sample short")
        #expect(sink.write(ramp(10)))
        #expect(wake.reset())
        #expect(sink.write(ramp(10)))
        #expect(!wake.reset(), "once")
        sink.notify(whenPlayedReaches: 100)
        #expect(wake.reset(), "already heard")
        sink.notify(whenPlayedReaches: 1000)
        sink.notify(whenPlayedReaches: .max)
        #expect(sink.write(ramp(1000)))
        #expect(!wake.reset(), "cancelled")
    }

    @Test func `a stopped job's samples are dropped until the next job begins`() throws {
        let sink = RenderedSink(store: MemoryStore(), sampleRate: 22050, wake: try EventFD())
        _ = try sink.beginJob(1, continuing: false)
        #expect(sink.write(ramp(10)))
        sink.stop(job: 1)
        #expect(sink.write(ramp(10, from: 10)), "a dropped write is no failure")
        #expect(sink.writePosition == 10 && sink.store.contents == ramp(10))
        #expect(try sink.beginJob(2, continuing: false) == 10)
        #expect(sink.write(ramp(10, from: 10)))
        #expect(sink.store.contents == ramp(20))
    }

    @Test func `a limit holds the writer at its position until it is lifted, or the job is cancelled`() throws {
        let sink = RenderedSink(store: MemoryStore(), sampleRate: 22050, wake: try EventFD())
        _ = try sink.beginJob(1, continuing: false)
        sink.limitPlayback(to: 60)
        let finished = Locked<Bool?>(nil)
        let writer = try NamedThread(name: "writer") {
            let done = sink.write(ramp(100))
            finished.withLock { $0 = done }
        }
        #expect(eventually { sink.writePosition == 60 })
        MonotonicClock.sleep(nanoseconds: 20_000_000)
        #expect(sink.writePosition == 60 && finished.withLock { $0 } == nil, "held at the limit")
        sink.limitPlayback(to: nil)
        #expect(writer.join(until: MonotonicClock.now + 10_000_000_000))
        #expect(finished.withLock { $0 } == true && sink.store.contents == ramp(100))

        sink.limitPlayback(to: 120)
        #expect(!sink.write(ramp(50, from: 100), isCancelled: { true }), "cancelled while held")
        #expect(sink.writePosition == 120 && sink.store.contents == ramp(120))
    }

    @Test func `a store that fails is counted with its reason, and the control thread woken`() throws {
        let wake = try EventFD()
        let sink = RenderedSink(store: FailingStore(), sampleRate: 22050, wake: wake)
        _ = try sink.beginJob(1, continuing: false)
        #expect(sink.write(ramp(10)) && sink.write(ramp(10)))
        #expect(sink.health.failures == 2 && sink.health.lastFailure == "no space left")
        #expect(wake.reset())
        #expect(sink.writePosition == 20, "heard anyway: the events of the job still complete")
    }
}
