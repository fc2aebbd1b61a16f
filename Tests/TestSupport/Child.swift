// A child process started with posix_spawn, with a clean signal state.
//
// Why not Foundation.Process: tests run on libdispatch worker threads, which block nearly every
// signal, and a process spawned from there inherits that mask. speech-dispatcher then ignores
// SIGTERM (it never sends its modules STOP+QUIT) and clients may hang. Here the child gets an empty
// signal mask and default dispositions, stdin from /dev/null and stdout/stderr into a file.
public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

public final class Child {
    public let processIdentifier: pid_t
    /// Exit code, or 128 + signal number; -1 if it could not be reaped. nil while running.
    public private(set) var terminationStatus: Int32?

    /// - Parameters:
    ///   - output: file for stdout (created/truncated).
    ///   - error: file for stderr; nil = the same file as stdout.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String],
        output: String, error: String? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if let error {
            posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] =
            environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let rc = withCleanSpawnAttributes { posix_spawn(&pid, executable, &actions, $0, argv, envp) }
        guard rc == 0 else {
            throw RigError("posix_spawn \(executable) failed: \(String(cString: strerror(rc)))")
        }
        processIdentifier = pid
    }

    /// Reaps the child if it has exited (non-blocking).
    public var isRunning: Bool {
        if terminationStatus != nil { return false }
        var status: Int32 = 0
        let r = waitpid(processIdentifier, &status, WNOHANG)
        if r == 0 { return true }
        if r == processIdentifier {
            let signal = status & 0x7f
            terminationStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        } else {
            terminationStatus = -1
        }
        return false
    }

    public func signal(_ signal: Int32) {
        if isRunning { kill(processIdentifier, signal) }
    }

    /// Waits until the child exits or the deadline passes; returns whether it exited.
    @discardableResult
    public func wait(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }
}
