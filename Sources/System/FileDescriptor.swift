internal import CUtterShims
import Glibc

/// An open file descriptor that closes itself: it can be moved but never copied, so it is closed
/// exactly once.
public struct FileDescriptor: ~Copyable, Sendable {
    /// The descriptor number, for calls that take one; valid as long as this value lives.
    public let rawValue: Int32

    /// Takes ownership of `rawValue`, which must be open.
    public init(taking rawValue: Int32) {
        self.rawValue = rawValue
    }

    deinit {
        close(rawValue)
    }

    /// Writes all of `bytes`, retrying after EINTR and EAGAIN; the error that stopped it otherwise.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) -> Errno? {
        var offset = 0
        while offset < bytes.count {
            let written = write(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .current
            }
            offset += written
        }
        return nil
    }

    /// Reads at most `buffer.count` bytes: the count (0 at end of file), or why not.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        let count = Glibc.read(rawValue, buffer.baseAddress, buffer.count)
        return count >= 0 ? .success(count) : .failure(.current)
    }
}

/// Pipes whose ends a child spawned by another thread cannot inherit.
public enum Pipe {
    /// Both ends of a new pipe, close-on-exec from the start; the caller closes them.
    public static func closeOnExec() throws(Errno) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard CUtterShims_pipeCloseOnExec(&ends) == 0 else { throw .current }
        return (ends[0], ends[1])
    }
}
