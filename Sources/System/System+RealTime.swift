import Glibc

// The system calls the audio render threads make, callable from `@_noLocks` code: the audit surface
// of System on the real-time path (CI allows `_unsafePerformance` only in `+RealTime.swift` files).

/// The clocks, waits and wakes of a real-time audio thread: no locks, no allocation.
public enum RealTime {
    /// Adds 1 to the eventfd `fd` without blocking, waking whoever polls it.
    @_noLocks
    public static func wake(_ fd: Int32) {
        var one: UInt64 = 1
        // write: one syscall on an eventfd; it only blocks if the counter would overflow 2^64 - 2.
        _ = _unsafePerformance { write(fd, &one, MemoryLayout<UInt64>.size) }
    }

    /// Waits until the eventfd `fd` is signalled or `milliseconds` pass (-1: no limit), then resets
    /// its counter; returns poll's result (0: the time ran out).
    @_noLocks
    @discardableResult
    public static func wait(on fd: Int32, milliseconds: Int32) -> Int32 {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        // poll and read: a plain syscall wait on our own eventfd, then resetting its counter.
        let ready = _unsafePerformance { poll(&descriptor, 1, milliseconds) }
        if descriptor.revents != 0 {
            var counter: UInt64 = 0
            _ = _unsafePerformance { read(fd, &counter, MemoryLayout<UInt64>.size) }
        }
        return ready
    }

    /// Sleeps `milliseconds` while a device plays.
    @_noLocks
    public static func sleep(milliseconds: Int32) {
        // poll with no descriptors: a timed sleep without a signal handler's side effects.
        _ = _unsafePerformance { poll(nil, 0, milliseconds) }
    }

    /// CLOCK_MONOTONIC in nanoseconds (``MonotonicClock``'s time base).
    @_noLocks
    public static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        // clock_gettime: served by the vDSO without a system call; no allocation.
        _ = _unsafePerformance { clock_gettime(CLOCK_MONOTONIC, &now) }
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }

    /// The wall clock in microseconds (libpulse stamps its timing replies with it).
    @_noLocks
    public static func wallMicroseconds() -> UInt64 {
        var now = timespec()
        // clock_gettime: served by the vDSO without a system call; no allocation.
        _ = _unsafePerformance { clock_gettime(CLOCK_REALTIME, &now) }
        return UInt64(now.tv_sec) &* 1_000_000 &+ UInt64(now.tv_nsec) / 1000
    }

    /// Lets another thread run (a reader retrying while the render thread writes); not real-time.
    public static func yield() {
        sched_yield()
    }
}
