import Glibc

/// An `errno` value that describes itself as `strerror` does.
public struct Errno: Error, CustomStringConvertible, Equatable, Sendable {
    public var code: Int32
    public init(_ code: Int32) { self.code = code }

    /// The calling thread's `errno` now.
    public static var current: Errno { Errno(errno) }

    public static let invalidArgument = Errno(EINVAL)
    public static let permissionDenied = Errno(EACCES)
    public static let noSuchFile = Errno(ENOENT)
    /// Nothing listens on a socket's path (a process that left it behind is gone).
    public static let connectionRefused = Errno(ECONNREFUSED)

    /// The call was interrupted or would have blocked: try again later, nothing is wrong.
    public var isTransient: Bool { code == EINTR || code == EAGAIN }

    public var description: String { String(cString: strerror(code)) }
}
