internal import CUtterShims
import Glibc

/// A thread with a name (shown by top, ps -L and gdb) that can be joined with a deadline, so a
/// process never waits for good on a thread held by a device or engine call that does not return.
public final class NamedThread: Sendable {
    private enum Handle {
        case running(pthread_t)
        case joined
        case detached
    }

    private let handle: Locked<Handle>

    /// Starts `body` on a new thread named `name` (at most 15 bytes are kept).
    public init(name: String, _ body: @escaping @Sendable () -> Void) throws(Errno) {
        let context = Unmanaged.passRetained(ThreadStart(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, namedThreadEntry, context)
        guard result == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(context).release()
            throw Errno(result)
        }
        handle = Locked(.running(thread))
    }

    /// Raises the thread to `SCHED_FIFO` at `priority`; why the system refused, or nil.
    public func setRealTimePriority(_ priority: Int32) -> Errno? {
        handle.withLock { handle in
            guard case .running(let thread) = handle else { return Errno(ESRCH) }
            var parameters = sched_param(sched_priority: priority)
            let error = pthread_setschedparam(thread, SCHED_FIFO, &parameters)
            return error == 0 ? nil : Errno(error)
        }
    }

    /// Waits for the thread to end until `deadline` (``MonotonicClock`` nanoseconds; `.max`: for
    /// good). True once it has ended (now or at an earlier call); false if it still runs or was
    /// let go (``detach()``), in which case nothing it uses may be freed.
    @discardableResult
    public func join(until deadline: UInt64 = .max) -> Bool {
        handle.withLock { handle in
            switch handle {
            case .joined: return true
            case .detached: return false
            case .running(let thread):
                guard CUtterShims_joinUntil(thread, deadline) == 0 else { return false }
                handle = .joined
                return true
            }
        }
    }

    /// Lets the thread end by itself, never to be joined: its owner gave up waiting for a call
    /// that does not return (a model load at exit). Only for a thread whose body holds on to all
    /// it uses; otherwise a thread that ends unjoined is a leak (and ThreadSanitizer says so).
    public func detach() {
        handle.withLock { handle in
            guard case .running(let thread) = handle else { return }
            pthread_detach(thread)
            handle = .detached
        }
    }
}

private final class ThreadStart {
    let name: String
    let body: @Sendable () -> Void
    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}

private func namedThreadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let start = Unmanaged<ThreadStart>.fromOpaque(context).takeRetainedValue()
    var name = start.name
    while name.utf8.count > 15 { name.removeLast() }
    _ = CUtterShims_nameCurrentThread(name)
    start.body()
    return nil
}
