import Glibc

/// A descriptor this value does not own (stdin, stdout, stderr, or one another object owns):
/// typed reads and writes on it, never a close.
public struct BorrowedDescriptor: Sendable {
    public let rawValue: Int32

    public init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Reads at most `buffer.count` bytes: the count (0 at end of file), or why not.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        let count = Glibc.read(rawValue, buffer.baseAddress, buffer.count)
        return count >= 0 ? .success(count) : .failure(.current)
    }

    /// Writes all of `bytes`, retrying after EINTR and EAGAIN; the error that stopped it otherwise
    /// (a writer that must never block or fail loudly, such as a log, checks it and goes on).
    public func writeAll(_ bytes: UnsafeRawBufferPointer) -> Errno? {
        var offset = 0
        while offset < bytes.count {
            let written = write(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .current
            }
            if written == 0 { return Errno(EIO) }
            offset += written
        }
        return nil
    }
}
