import AudioStream
import Synchronization
import System
import Testing

// How the producer (the synth thread) writes into a ring that fills: it waits for room instead of
// spinning, and it wakes the render side only when the render side may be waiting for frames
// (each wake of a libpulse render thread is a wakeup of a real-time thread).

@Suite struct ProducerWakeTests {
    @Test func `writing more than fits waits for room while full and reports where each piece starts`() {
        let ring = SampleRing(capacity: 8)
        let samples = (1...20).map { Int16($0) }
        var starts: [UInt64] = []
        var received: [Int16] = []
        var waits = 0
        var scratch = [Int16](repeating: 0, count: 5)
        let done = samples.withUnsafeBufferPointer { all in
            ring.write(
                all: all, isCancelled: { false },
                waitForRoom: {
                    // The consumer takes 5 frames while the producer waits.
                    waits += 1
                    scratch.withUnsafeMutableBufferPointer { buffer in
                        let count = ring.read(into: buffer)
                        received.append(contentsOf: buffer[0..<count])
                    }
                },
                wake: { starts.append($0) })
        }
        #expect(done)
        #expect(starts == [0, 8, 13, 18])
        #expect(waits == 3)
        var rest = [Int16](repeating: 0, count: 8)
        let count = rest.withUnsafeMutableBufferPointer { ring.read(into: $0) }
        received.append(contentsOf: rest[0..<count])
        #expect(received == samples)
    }

    @Test func `a cancel while the ring is full ends the write after the wait, with the rest unwritten`() {
        let ring = SampleRing(capacity: 8)
        let samples = [Int16](repeating: 7, count: 20)
        var cancelled = false
        var waits = 0
        let done = samples.withUnsafeBufferPointer { all in
            ring.write(
                all: all, isCancelled: { cancelled },
                waitForRoom: {
                    waits += 1
                    cancelled = true
                }, wake: { _ in })
        }
        #expect(!done)
        #expect(waits == 1)
        #expect(ring.writePosition == 8)
    }

    @Test func `a sink wakes the render side for a write only while it holds fewer frames of the job than asked`()
        throws
    {
        let connection = WakeCountingConnection()
        let sink = try StreamSink(
            sampleRate: 22050, ringCapacity: 1024, fullRingWait: 1_000_000, quietAbove: 100, controlWake: try EventFD()
        ) { _, _, _ in connection }
        _ = try sink.beginJob(1, continuing: false)
        #expect(connection.wakes == 1)
        write(50, to: sink)
        write(60, to: sink)  // 50 held before: below 100
        #expect(connection.wakes == 3)
        write(10, to: sink)  // 110 held: the render side has frames it has not handed over
        #expect(connection.wakes == 3)
        var out = [Int16](repeating: 0, count: 1024)
        #expect(out.withUnsafeMutableBufferPointer { sink.ring.read(into: $0) } == 120)
        write(10, to: sink)  // the render side took everything: it may be asleep
        #expect(connection.wakes == 4)
        write(200, to: sink)
        #expect(connection.wakes == 5)
        // A new job: the 210 frames of the last one are stale and do not count as held.
        _ = try sink.beginJob(2, continuing: false)
        #expect(connection.wakes == 6)
        write(10, to: sink)
        #expect(connection.wakes == 7)
        write(10, to: sink)
        #expect(connection.wakes == 8)
    }

    @Test func `a sink without a quiet level wakes the render side for every write`() throws {
        let connection = WakeCountingConnection()
        let sink = try StreamSink(sampleRate: 22050, ringCapacity: 1024, fullRingWait: 1_000_000, controlWake: try EventFD()) { _, _, _ in
            connection
        }
        _ = try sink.beginJob(1, continuing: false)
        for _ in 0..<5 { write(150, to: sink) }
        #expect(connection.wakes == 6)
    }

    private func write(_ frames: Int, to sink: StreamSink) {
        let samples = [Int16](repeating: 1000, count: frames)
        let done = samples.withUnsafeBufferPointer { sink.write($0, isCancelled: { false }) }
        #expect(done)
    }
}

/// A connection with no server: it counts the wakes the sink sends its render side.
private final class WakeCountingConnection: StreamConnection {
    private let count = Atomic<Int>(0)
    var wakes: Int { count.load(ordering: .relaxed) }

    func connect() throws(StreamError) {}
    func disconnect() -> Bool { false }
    func start() -> String? { nil }
    func wakeRenderSide() { count.add(1, ordering: .relaxed) }
    func shutdown(until deadline: UInt64) -> Bool { true }
    var lastFailure: String? { nil }
}
