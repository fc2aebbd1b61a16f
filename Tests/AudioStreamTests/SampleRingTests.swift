import AudioStream
import Glibc
import Synchronization
import Testing

@Suite struct SampleRingTests {
    /// A counting sequence, so any lost, repeated or reordered sample shows.
    static func sample(_ index: Int) -> Int16 { Int16(truncatingIfNeeded: index &* 7 &+ 3) }

    @Test(arguments: 1...70)
    func `copies in and out across the wrap at every chunk size`(chunk: Int) {
        let ring = SampleRing(capacity: 64)
        let total = 1000
        var source = (0..<total).map(Self.sample)
        var received: [Int16] = []
        var scratch = [Int16](repeating: 0, count: 97)
        var sent = 0
        // Read in a size that differs from the write size, so the pieces land at every offset.
        let readChunk = chunk % 13 + 1
        source.withUnsafeMutableBufferPointer { all in
            while received.count < total {
                if sent < total {
                    let end = min(sent + chunk, total)
                    sent += ring.write(UnsafeBufferPointer(rebasing: all[sent..<end]))
                }
                scratch.withUnsafeMutableBufferPointer { buffer in
                    let count = ring.read(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<readChunk]))
                    received.append(contentsOf: buffer[0..<count])
                }
                #expect(ring.writePosition - ring.readPosition <= 64)
            }
        }
        #expect(received == source)
        #expect(ring.writePosition == UInt64(total))
        #expect(ring.readPosition == UInt64(total))
    }

    @Test func `refuses samples beyond its capacity`() {
        let ring = SampleRing(capacity: 8)
        let samples = [Int16](1...10)
        let written = samples.withUnsafeBufferPointer { ring.write($0) }
        #expect(written == 8)
        var out = [Int16](repeating: 0, count: 10)
        let read = out.withUnsafeMutableBufferPointer { ring.read(into: $0) }
        #expect(read == 8)
        #expect(Array(out[0..<8]) == Array(samples[0..<8]))
    }

    @Test func `a producer and a consumer thread see the same order`() {
        let ring = SampleRing(capacity: 64)
        let total = 200_000
        let mismatches = Atomic<Int>(0)
        let producer = startThread {
            var chunk = [Int16](repeating: 0, count: 37)
            var next = 0
            var size = 1
            while next < total {
                let count = min(size, total - next)
                for i in 0..<count { chunk[i] = Self.sample(next + i) }
                var done = 0
                while done < count {
                    let wrote = chunk.withUnsafeBufferPointer {
                        ring.write(UnsafeBufferPointer(rebasing: $0[done..<count]))
                    }
                    done += wrote
                    if wrote == 0 { sched_yield() }
                }
                next += count
                size = size % 37 + 1
            }
        }
        let consumer = startThread {
            var buffer = [Int16](repeating: 0, count: 29)
            var next = 0
            var size = 1
            while next < total {
                let count = buffer.withUnsafeMutableBufferPointer {
                    ring.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<size]))
                }
                if count == 0 { sched_yield() }
                for i in 0..<count where buffer[i] != Self.sample(next + i) {
                    mismatches.add(1, ordering: .relaxed)
                }
                next += count
                size = size % 29 + 1
            }
        }
        pthread_join(producer, nil)
        pthread_join(consumer, nil)
        #expect(mismatches.load(ordering: .relaxed) == 0)
        #expect(ring.readPosition == UInt64(total))
    }
}

/// Runs `body` on a new pthread (no Foundation, no Dispatch), like the module's own threads.
func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
        &thread, nil,
        { argument in
            Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue().body()
            return nil
        }, context)
    precondition(result == 0, "pthread_create failed: \(result)")
    return thread
}
