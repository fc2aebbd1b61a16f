import Glibc
import System

/// CLOCK_MONOTONIC in seconds, for deadlines.
public func monotonicSeconds() -> Double {
    Double(MonotonicClock.now) / 1e9
}

/// Asks `condition` every `interval` seconds until it holds or `seconds` have passed; whether it
/// held. A deadline against hangs, not a timing assert.
public func eventually(within seconds: Double = 10, every interval: Double = 0.001, _ condition: () -> Bool) -> Bool {
    let deadline = monotonicSeconds() + seconds
    while monotonicSeconds() < deadline {
        if condition() { return true }
        MonotonicClock.sleep(nanoseconds: UInt64(interval * 1e9))
    }
    return condition()
}
