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
