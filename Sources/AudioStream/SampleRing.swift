import Synchronization
import System

/// A single-producer, single-consumer ring of Int16 samples addressed by absolute frame positions.
///
/// Both indices run freely from 0 (positions since creation) and are masked only to address the
/// storage, so a position names the same sample for the producer, the consumer and the control
/// thread. The producer publishes its index with release ordering after copying samples in, the
/// consumer publishes its index with release ordering after copying samples out; each side reads
/// the other's index with acquire ordering. Copies go in at most two pieces (before and after the
/// end of the storage). The storage is allocated once, at init.
public final class SampleRing: @unchecked Sendable {
    // @unchecked Sendable: `storage` is shared by two threads, but a slot is only written by the
    // producer while it lies in [write, read + capacity) and only read by the consumer while it lies
    // in [read, write). The release store of one index and the acquire load of it on the other side
    // order those accesses, so no slot is ever accessed by both threads at once.

    /// The number of samples the ring holds, a power of two.
    public let capacity: Int
    private let mask: UInt64
    private let storage: UnsafeMutablePointer<Int16>
    private let writeIndex = Atomic<UInt64>(0)
    private let readIndex = Atomic<UInt64>(0)

    /// Creates an empty ring; `capacity` must be a power of two of at least 2.
    public init(capacity: Int) {
        precondition(
            capacity >= 2 && capacity & (capacity - 1) == 0,
            "SampleRing capacity must be a power of two, got \(capacity)")
        self.capacity = capacity
        self.mask = UInt64(capacity - 1)
        self.storage = .allocate(capacity: capacity)
        self.storage.initialize(repeating: 0, count: capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// The position just past the last sample the producer has written.
    public var writePosition: UInt64 {
        writeIndex.load(ordering: .acquiring)
    }

    /// The position of the next sample the consumer will take.
    public var readPosition: UInt64 {
        readIndex.load(ordering: .acquiring)
    }

    // MARK: Producer side

    /// Copies as many of `samples` as fit and returns how many; producer thread only.
    public func write(_ samples: UnsafeBufferPointer<Int16>) -> Int {
        guard let source = samples.baseAddress, !samples.isEmpty else { return 0 }
        let write = writeIndex.load(ordering: .relaxed)
        let read = readIndex.load(ordering: .acquiring)
        let free = capacity - Int(write &- read)
        let count = samples.count < free ? samples.count : free
        if count == 0 { return 0 }
        let offset = Int(write & mask)
        let first = count < capacity - offset ? count : capacity - offset
        (storage + offset).update(from: source, count: first)
        if first < count {
            storage.update(from: source + first, count: count - first)
        }
        writeIndex.store(write &+ UInt64(count), ordering: .releasing)
        return count
    }

    // MARK: Consumer side (checked real-time: called from the render loop)

    /// The producer's published position, loaded with acquire ordering.
    @_noLocks
    package func producerPosition() -> UInt64 {
        writeIndex.load(ordering: .acquiring)
    }

    /// The consumer's own position; consumer thread only.
    @_noLocks
    package func consumerPosition() -> UInt64 {
        readIndex.load(ordering: .relaxed)
    }

    /// Copies `count` samples starting at `position` to `destination`; consumer thread only.
    ///
    /// `position..<position + count` must lie within `readPosition..<writePosition`.
    @_noLocks
    package func copy(from position: UInt64, count: Int, to destination: UnsafeMutablePointer<Int16>) {
        let offset = Int(position & mask)
        let first = count < capacity - offset ? count : capacity - offset
        // Raw byte copies: the typed `update(from:count:)` is generic and fails the @_noLocks check.
        UnsafeMutableRawPointer(destination).copyMemory(
            from: storage + offset, byteCount: first * MemoryLayout<Int16>.stride)
        if first < count {
            UnsafeMutableRawPointer(destination + first).copyMemory(
                from: storage, byteCount: (count - first) * MemoryLayout<Int16>.stride)
        }
    }

    /// Releases every sample before `position` to the producer; consumer thread only.
    @_noLocks
    package func consume(upTo position: UInt64) {
        readIndex.store(position, ordering: .releasing)
    }

    /// Copies up to `destination.count` samples out and returns how many; consumer thread only.
    public func read(into destination: UnsafeMutableBufferPointer<Int16>) -> Int {
        guard let base = destination.baseAddress else { return 0 }
        let read = readIndex.load(ordering: .relaxed)
        let available = Int(writeIndex.load(ordering: .acquiring) &- read)
        let count = destination.count < available ? destination.count : available
        if count == 0 { return 0 }
        copy(from: read, count: count, to: base)
        consume(upTo: read &+ UInt64(count))
        return count
    }
}

extension SampleRing {
    /// Writes all of `samples`, calling `wake` after each piece with the write position before it,
    /// and `waitForRoom` while the ring is full; producer thread only. Returns false, with part of
    /// the samples written, as soon as `isCancelled` returns true while waiting for room.
    package func write(
        all samples: UnsafeBufferPointer<Int16>, isCancelled: () -> Bool, waitForRoom: () -> Void,
        wake: (_ pieceStart: UInt64) -> Void
    ) -> Bool {
        var rest = samples
        while !rest.isEmpty {
            let start = writeIndex.load(ordering: .relaxed)
            let count = write(rest)
            if count > 0 {
                rest = UnsafeBufferPointer(rebasing: rest[count...])
                wake(start)
                if rest.isEmpty { break }
            }
            if isCancelled() { return false }
            waitForRoom()
        }
        return true
    }
}
