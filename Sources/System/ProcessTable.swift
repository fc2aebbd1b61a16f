import Glibc

/// Another process on this machine, as /proc shows it.
public struct RunningProcess: Equatable, Sendable {
    public var pid: Int32
    /// Its arguments, the program first.
    public var arguments: [String]

    /// The processes of user `uid`, read from /proc (a process that ends meanwhile is skipped).
    public static func owned(by uid: UInt32) -> [RunningProcess] {
        guard let names = try? FileSystem.entries(of: "/proc") else { return [] }
        return names.compactMap { name -> RunningProcess? in
            guard let pid = Int32(name) else { return nil }
            var status = stat()
            guard stat("/proc/\(name)", &status) == 0, status.st_uid == uid,
                let raw = try? FileSystem.contents(of: "/proc/\(name)/cmdline"), !raw.isEmpty
            else { return nil }
            let arguments = raw.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
                String(decoding: $0, as: UTF8.self)
            }
            return RunningProcess(pid: pid, arguments: arguments)
        }
    }

    /// The value of variable `name` in its environment as it started (readable for one's own
    /// processes only).
    public func environmentValue(_ name: String) -> String? {
        guard let raw = try? FileSystem.contents(of: "/proc/\(pid)/environ") else { return nil }
        let prefix = Array((name + "=").utf8)
        for entry in raw.split(separator: 0) where entry.starts(with: prefix) {
            return String(decoding: entry.dropFirst(prefix.count), as: UTF8.self)
        }
        return nil
    }

    /// Asks it to end (SIGTERM).
    public func terminate() -> Bool {
        Glibc.kill(pid, SIGTERM) == 0
    }

    /// Ends it at once (SIGKILL).
    public func kill() -> Bool {
        Glibc.kill(pid, SIGKILL) == 0
    }

    /// Whether it still runs (a zombie counts as ended).
    public var isRunning: Bool {
        guard Glibc.kill(pid, 0) == 0, let stat = try? FileSystem.contents(of: "/proc/\(pid)/stat") else { return false }
        // The state follows the parenthesised command name: "pid (name) S …".
        guard let close = stat.lastIndex(of: UInt8(ascii: ")")), close + 2 < stat.count else { return false }
        return stat[close + 2] != UInt8(ascii: "Z")
    }
}

extension CurrentProcess {
    /// The real user ID.
    public static var userID: UInt32 { getuid() }

    /// The path of the running program, links resolved.
    public static var executablePath: String? { FileSystem.resolvedPath("/proc/self/exe") }
}
