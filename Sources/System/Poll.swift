internal import CUtterShims
import Glibc


/// Waits until one of `descriptors` is readable (or hung up) or `timeout` nanoseconds have passed
/// (nil: no limit); returns which ones are ready, by index. Nanoseconds, not milliseconds, so a
/// wait can end on the exact time a sample is heard. EINTR is an empty answer.
public func poll(_ descriptors: [Int32], timeout: UInt64?) -> Result<[Bool], Errno> {
    var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let nanoseconds = timeout.map { Int64(min($0, UInt64(Int64.max))) } ?? -1
    let ready = CUtterShims_pollNanoseconds(&fds, UInt(fds.count), nanoseconds)
    if ready < 0 {
        return errno == EINTR ? .success(Array(repeating: false, count: fds.count)) : .failure(.current)
    }
    return .success(fds.map { $0.revents != 0 })
}

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
