import Glibc
import Synchronization

/// libespeak-ng allows one engine per process, and every test target runs in one process: tests
/// that start an engine in-process take turns through here, whichever suite they are in.
public enum EngineTurns {
    private static let busy = Atomic<Bool>(false)

    /// Waits for the engine to be free and takes it; call ``release()`` when done.
    public static func take() async {
        while !busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// The same, for synchronous tests.
    public static func takeBlocking() {
        while !busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            var wait = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            nanosleep(&wait, nil)
        }
    }

    /// Hands the engine to the next test.
    public static func release() {
        busy.store(false, ordering: .releasing)
    }
}
