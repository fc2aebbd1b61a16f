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
