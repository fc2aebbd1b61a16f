import Glibc
import Synchronization

/// libespeak-ng allows one engine per process, and every test target runs in one process: tests
/// that start an engine in-process take turns through here, whichever suite they are in.
public enum EngineTurns {
    private static let busy = Atomic<Bool>(false)

    /// Waits for the engine to be free and takes it; call ``release()`` when done.
    ///
    /// Async only: a test waiting here gives its thread back. A synchronous wait would hold one of
    /// the few threads Swift Testing runs tests on, and two of them held while the engine's holder
    /// awaits one left every test waiting for ever (seen on two cores).
    public static func take() async {
        while !busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Hands the engine to the next test.
    public static func release() {
        busy.store(false, ordering: .releasing)
    }
}
