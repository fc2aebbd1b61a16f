public import Glibc

/// Calls `body` with spawn attributes for a child that starts with no signal blocked and the usual
/// signals at their defaults, whatever the spawning test thread blocks or ignores (a test thread
/// blocks most signals, and a server a child starts would inherit that and never see SIGTERM).
public func withCleanSpawnAttributes<R>(_ body: (UnsafePointer<posix_spawnattr_t>) -> R) -> R {
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
