import Synchronization
import System

/// The device clock: where playback was at a moment, and whether it is advancing. The render
/// thread publishes it once per period; the control thread reads it to tell the position heard
/// between periods.
///
/// A seqlock: the sequence is odd while the render thread writes the other fields, and a reader
/// that saw it change (or odd) reads again. Sequentially consistent loads and stores keep the
/// fields ordered against the sequence without fences. The writer never waits.
package struct PlaybackClock: ~Copyable, Sendable {
    /// One consistent reading. `position` was the position heard at `time` (CLOCK_MONOTONIC, ns);
    /// while `rate` is not 0 (the device is running) playback advances at that many frames per
    /// second from there, but never past `ceiling`, the frames handed to the device.
    package struct Reading {
        package var position: UInt64 = 0
        package var time: UInt64 = 0
        package var ceiling: UInt64 = 0
        package var rate: UInt64 = 0
    }

    private let sequence = Atomic<UInt64>(0)
    private let position = Atomic<UInt64>(0)
    private let time = Atomic<UInt64>(0)
    private let ceiling = Atomic<UInt64>(0)
    private let rate = Atomic<UInt64>(0)

    /// Publishes a reading (render thread only); returns whether the clock was running before it.
    @_noLocks
    package func publish(position: UInt64, time: UInt64, ceiling: UInt64, rate: UInt64) -> Bool {
        let wasRunning = self.rate.load(ordering: .relaxed) != 0
        let sequence = self.sequence.load(ordering: .relaxed)
        self.sequence.store(sequence &+ 1, ordering: .sequentiallyConsistent)
        self.position.store(position, ordering: .sequentiallyConsistent)
        self.time.store(time, ordering: .sequentiallyConsistent)
        self.ceiling.store(ceiling, ordering: .sequentiallyConsistent)
        self.rate.store(rate, ordering: .sequentiallyConsistent)
        self.sequence.store(sequence &+ 2, ordering: .sequentiallyConsistent)
        return wasRunning
    }

    /// The newest consistent reading (retried while the render thread writes).
    package func read() -> Reading {
        while true {
            let before = sequence.load(ordering: .sequentiallyConsistent)
            let reading = Reading(
                position: position.load(ordering: .sequentiallyConsistent),
                time: time.load(ordering: .sequentiallyConsistent),
                ceiling: ceiling.load(ordering: .sequentiallyConsistent),
                rate: rate.load(ordering: .sequentiallyConsistent))
            let after = sequence.load(ordering: .sequentiallyConsistent)
            if before == after && before & 1 == 0 { return reading }
            RealTime.yield()
        }
    }
}
