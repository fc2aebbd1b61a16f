import Glibc

/// CLOCK_MONOTONIC, the time base of playback clocks.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary start (boot).
    public static var now: UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Sleeps `nanoseconds`.
    public static func sleep(nanoseconds: UInt64) {
        var wait = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        nanosleep(&wait, nil)
    }
}
