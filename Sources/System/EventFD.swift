internal import CUtterShims
import Glibc

/// A Linux eventfd used as a wake-up: any thread may signal it, one thread waits on it (in `poll`,
/// with other descriptors) and resets it. Signals coalesce; a waiter re-reads whatever state it
/// cares about after each wake.
public final class EventFD: Sendable {
    private let descriptor: FileDescriptor

    /// A new eventfd, close-on-exec; non-blocking unless `blocking`, in which case ``wait()`` sleeps.
    public init(blocking: Bool = false) throws(Errno) {
        let fd = CUtterShims_eventfd(blocking ? 0 : 1)
        guard fd >= 0 else { throw .current }
        descriptor = FileDescriptor(taking: fd)
    }

    /// The descriptor, to poll for `POLLIN` or to hand to code that signals it without this object
    /// (the render thread). Valid as long as this object lives.
    public var rawValue: Int32 { descriptor.rawValue }

    /// Adds one to the counter, waking the waiter; never blocks.
    public func signal() {
        var one: UInt64 = 1
        _ = write(descriptor.rawValue, &one, 8)
    }

    /// Resets the counter; returns whether it was signalled. With a blocking eventfd, sleeps until it is.
    @discardableResult
    public func reset() -> Bool {
        var value: UInt64 = 0
        return read(descriptor.rawValue, &value, 8) == 8
    }
}
