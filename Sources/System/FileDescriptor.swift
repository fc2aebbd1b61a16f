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
        Glibc.close(rawValue)
    }

    /// Closes it now rather than where it goes out of scope.
    public consuming func close() {}

    /// The descriptor for reads and writes, as long as this value lives.
    public var borrowed: BorrowedDescriptor { BorrowedDescriptor(rawValue) }
}
