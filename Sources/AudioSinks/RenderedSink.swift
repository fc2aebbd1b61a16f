import Synchronization
public import System

/// Where a ``RenderedSink`` keeps its samples: memory, or a sound file.
public protocol SampleStore: Sendable {
    /// Keeps `samples` after those kept so far; the error that lost them, if any.
    func append(_ samples: UnsafeBufferPointer<Int16>) -> (any Error)?
}

/// A sink that renders as fast as the engine goes: a sample counts as heard once it is stored,
/// so events come at their exact sample position, never on a device's clock.
///
/// A playback limit holds the producer back (it waits, like a full device, until the limit is
/// lifted or its job is cancelled); a stopped job's samples are dropped.
public final class RenderedSink<Store: SampleStore>: SampleSink {
    public let sampleRate: Int
    public let store: Store
    private let wake: EventFD
    private let written = Atomic<UInt64>(0)
    private let currentJob = Atomic<UInt64>(0)
    private let mutedThrough = Atomic<UInt64>(0)
    private let limit = Atomic<UInt64>(.max)
    private let threshold = Atomic<UInt64>(.max)
    private let failure = Locked<SinkHealth>(SinkHealth())

    /// A sink storing into `store` at `sampleRate`, waking the control thread through `wake`.
    public init(store: Store, sampleRate: Int, wake: EventFD) {
        self.store = store
        self.sampleRate = sampleRate
        self.wake = wake
    }

    public func start() -> String? { nil }

    public func beginJob(_ job: UInt64, continuing: Bool) throws -> UInt64 {
        currentJob.store(job, ordering: .releasing)
        return written.load(ordering: .acquiring)
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>, isCancelled: () -> Bool) -> Bool {
        var rest = samples
        while !rest.isEmpty {
            if currentJob.load(ordering: .acquiring) <= mutedThrough.load(ordering: .acquiring) { return true }
            let position = written.load(ordering: .relaxed)
            let end = limit.load(ordering: .acquiring)
            let count = position < end ? Int(min(UInt64(rest.count), end - position)) : 0
            if count > 0 {
                if let error = store.append(UnsafeBufferPointer(rebasing: rest[..<count])) {
                    failure.withLock { health in
                        health.failures += 1
                        health.lastFailure = "\(error)"
                    }
                    wake.signal()
                }
                let now = written.add(UInt64(count), ordering: .acquiringAndReleasing).newValue
                rest = UnsafeBufferPointer(rebasing: rest[count...])
                let wanted = threshold.load(ordering: .acquiring)
                if now >= wanted,
                    threshold.compareExchange(expected: wanted, desired: .max, ordering: .acquiringAndReleasing).exchanged
                {
                    wake.signal()
                }
                continue
            }
            // Held at a pause: wait as a full device would, a millisecond at a time.
            if isCancelled() { return false }
            MonotonicClock.sleep(nanoseconds: 1_000_000)
        }
        return true
    }

    public var writePosition: UInt64 { written.load(ordering: .acquiring) }
    public func prepare() throws {}
    public func release() -> Bool { false }
    public func takeNotice() -> String? { nil }
    public func playedPosition(at now: UInt64) -> UInt64 { written.load(ordering: .acquiring) }
    public func nanoseconds(untilPlayed position: UInt64, at now: UInt64) -> UInt64? { nil }

    public func notify(whenPlayedReaches position: UInt64) {
        threshold.store(position, ordering: .releasing)
        if written.load(ordering: .acquiring) >= position { wake.signal() }
    }

    public func stop(job: UInt64) {
        mutedThrough.max(job, ordering: .releasing)
    }

    public func limitPlayback(to position: UInt64?) {
        limit.store(position ?? .max, ordering: .releasing)
    }

    public var health: SinkHealth { failure.withLock { $0 } }
    public func shutdown(until deadline: UInt64) -> Bool { true }
}
