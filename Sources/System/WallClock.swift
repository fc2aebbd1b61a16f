import Glibc

/// The local time of day, for log lines.
public struct TimeOfDay: Equatable, Sendable {
    public var hour: Int
    public var minute: Int
    public var second: Int
    public var millisecond: Int

    /// Now, in the process's time zone.
    public static var now: TimeOfDay {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var parts = tm()
        var seconds = time.tv_sec
        localtime_r(&seconds, &parts)
        return TimeOfDay(
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec),
            millisecond: time.tv_nsec / 1_000_000)
    }

    /// `HH:MM:SS.mmm`.
    public var formatted: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2)).\(padded(millisecond, 3))"
    }
}

extension TimeOfDay {
    /// The local time of day at `milliseconds` since 1970 (UTC), in the process's time zone.
    public init(millisecondsSince1970 milliseconds: Int64) {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        self.init(
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec),
            millisecond: Int(milliseconds % 1000))
    }
}

/// The real-time clock, for times a person reads (never for measuring: see ``MonotonicClock``).
public enum WallClock {
    /// Milliseconds since 1970-01-01 UTC.
    public static var millisecondsSince1970: Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec / 1_000_000)
    }
}
