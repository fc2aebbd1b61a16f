internal import CUtterShims
import Glibc

/// Waits until one of `descriptors` is readable (or hung up) or `timeout` nanoseconds have passed
/// (nil: no limit); returns which ones are ready, by index. Nanoseconds, not milliseconds, so a
/// wait can end on the exact time a sample is heard. EINTR is an empty answer.
public func poll(_ descriptors: [Int32], timeout: UInt64?) -> Result<[Bool], Errno> {
    poll(descriptors.map { PollRequest($0) }, timeout: timeout)
}

/// A descriptor to wait for: readable (or hung up), and writable too when asked.
public struct PollRequest: Sendable {
    public var descriptor: Int32
    public var waitsForWritable: Bool

    public init(_ descriptor: Int32, waitsForWritable: Bool = false) {
        self.descriptor = descriptor
        self.waitsForWritable = waitsForWritable
    }
}

/// Waits until one of `requests` is ready or `timeout` nanoseconds have passed (nil: no limit);
/// which ones are ready, by index. EINTR is an empty answer.
public func poll(_ requests: [PollRequest], timeout: UInt64?) -> Result<[Bool], Errno> {
    var fds = requests.map {
        pollfd(fd: $0.descriptor, events: Int16($0.waitsForWritable ? POLLIN | POLLOUT : POLLIN), revents: 0)
    }
    let nanoseconds = timeout.map { Int64(min($0, UInt64(Int64.max))) } ?? -1
    let ready = CUtterShims_pollNanoseconds(&fds, UInt(fds.count), nanoseconds)
    if ready < 0 {
        return errno == EINTR ? .success(Array(repeating: false, count: fds.count)) : .failure(.current)
    }
    return .success(fds.map { $0.revents != 0 })
}
