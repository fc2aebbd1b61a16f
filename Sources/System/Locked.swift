import Glibc

/// A value that one thread at a time may read or change, behind a pthread mutex.
///
/// Used instead of `Synchronization.Mutex` because ThreadSanitizer does not see `Mutex`'s futex on
/// Linux (Swift 6.3.1: two threads appending to a `Mutex<[Int]>` are reported as racing), which
/// would bury real races under false ones; pthread mutexes are intercepted, so the whole test suite
/// runs under TSan. Never used by the render thread.
public final class Locked<Value>: @unchecked Sendable {
    // Allocated, not stored inline: a pthread mutex must not move.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// Wraps `value`.
    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
