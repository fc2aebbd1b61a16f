import Glibc

/// A shell command started and left to run: the caller goes on, and asks later how it ended.
public struct BackgroundProcess: Sendable {
    public let pid: Int32

    /// Starts `/bin/sh -c command` with this process's environment, its input from /dev/null and
    /// its output discarded (it must not draw over a terminal the caller draws on).
    public static func shell(_ command: String) throws(Errno) -> BackgroundProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        // Our threads block signals, and a blocked mask outlives exec; so does an ignored SIGPIPE.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigaddset(&signals, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let words: [String] = ["/bin/sh", "-c", command]
        let arguments = words.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, environ)
        guard result == 0 else { throw Errno(result) }
        return BackgroundProcess(pid: pid)
    }

    /// Its exit status if it has ended (128 + the signal that ended it), collecting it; nil while
    /// it runs. Ask until it answers, once: a process that ended stays a zombie until then.
    public func exitStatus() -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return result < 0 ? -1 : nil }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
