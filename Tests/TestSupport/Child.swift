// Child processes started with posix_spawn, with a clean signal state.
//
// Why not Foundation.Process: tests run on libdispatch worker threads, which block nearly every
// signal, and a process spawned from there inherits that mask. speech-dispatcher then ignores
// SIGTERM (it never sends its modules STOP+QUIT) and clients may hang. Here the child gets an empty
// signal mask and default dispositions, and its standard streams where the caller says.
public import Glibc

/// Where a child's standard input, output or error goes.
public enum ChildStream: Sendable {
    /// This process's own.
    case inherited
    case null
    /// A file, created (mode 0644) and truncated, or appended to.
    case file(String, appending: Bool = false)
    /// An open descriptor of this process.
    case descriptor(Int32)
    /// Standard error only: where standard output goes.
    case output
}

/// The signal state a child starts with.
public enum ChildSignals: Sendable {
    /// No signal blocked and the usual ones at their defaults.
    case clean
    /// The spawning thread's mask and dispositions, as they are.
    case inherited
}

/// Starts `arguments` (the first an absolute path) with `environment` (`NAME=value`) and its
/// standard streams where asked, closing `closing` in the child; its process ID.
public func spawnChild(
    _ arguments: [String], environment: [String], input: ChildStream = .null, output: ChildStream,
    error: ChildStream = .output, closing: [Int32] = [], signals: ChildSignals = .clean
) throws(SpawnError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (descriptor, stream) in [(Int32(0), input), (1, output), (2, error)] {
        switch stream {
        case .inherited: break
        case .null:
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        case .file(let path, let appending):
            let flags = O_WRONLY | O_CREAT | (appending ? O_APPEND : O_TRUNC)
            posix_spawn_file_actions_addopen(&actions, descriptor, path, flags, 0o644)
        case .descriptor(let open): posix_spawn_file_actions_adddup2(&actions, open, descriptor)
        case .output: posix_spawn_file_actions_adddup2(&actions, 1, descriptor)
        }
    }
    for descriptor in closing { posix_spawn_file_actions_addclose(&actions, descriptor) }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = (environment + threadSanitizerOptions(missingFrom: environment)).map { strdup($0) } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var child: pid_t = 0
    let result =
        switch signals {
        case .clean: withCleanSpawnAttributes { posix_spawn(&child, arguments[0], &actions, $0, argv, envp) }
        case .inherited: posix_spawn(&child, arguments[0], &actions, nil, argv, envp)
        }
    guard result == 0 else { throw SpawnError(what: "posix_spawn \(arguments[0])", code: result) }
    return child
}

/// This test process's `TSAN_OPTIONS`, for a child whose environment does not set them: a module
/// or `utter` built with ThreadSanitizer then runs under the options its stage chose (`.ci/run`
/// shortens the runtime's sleep at exit), whatever environment the test gave it. Other variables,
/// ASAN_OPTIONS among them, stay as the test wrote them.
private func threadSanitizerOptions(missingFrom environment: [String]) -> [String] {
    guard let options = getenv("TSAN_OPTIONS"), !environment.contains(where: { $0.hasPrefix("TSAN_OPTIONS=") })
    else { return [] }
    return ["TSAN_OPTIONS=" + String(cString: options)]
}

/// Calls `body` with spawn attributes for a child that starts with no signal blocked and the usual
/// signals at their defaults, whatever the spawning test thread blocks or ignores (a test thread
/// blocks most signals, and a server a child starts would inherit that and never see SIGTERM).
private func withCleanSpawnAttributes<R>(_ body: (UnsafePointer<posix_spawnattr_t>) -> R) -> R {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM] {
        sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    return withUnsafePointer(to: &attributes) { body($0) }
}

/// A child process started with a clean signal state, and reaped when asked about.
public final class Child {
    public let processIdentifier: pid_t
    /// Exit code, or 128 + signal number; -1 if it could not be reaped. nil while running.
    public private(set) var terminationStatus: Int32?

    /// Starts `arguments` (the first an absolute path) with `environment` (`NAME=value`), standard
    /// input from /dev/null.
    public init(
        _ arguments: [String], environment: [String], output: ChildStream, error: ChildStream = .output
    ) throws {
        processIdentifier = try spawnChild(arguments, environment: environment, output: output, error: error)
    }

    /// - Parameters:
    ///   - output: file for stdout (created/truncated).
    ///   - error: file for stderr; nil = the same file as stdout.
    public convenience init(
        _ executable: String, _ arguments: [String], environment: [String: String],
        output: String, error: String? = nil
    ) throws {
        try self.init(
            [executable] + arguments, environment: environment.map { "\($0.key)=\($0.value)" }, output: .file(output),
            error: error.map { .file($0) } ?? .output)
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

    /// Waits until the child exits or `seconds` pass, blocking the calling thread; whether it exited.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        eventually(within: seconds, every: 0.01) { !isRunning }
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
