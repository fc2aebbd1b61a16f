import Glibc

/// A command running in a terminal of its own: a detached tmux session on a private server, so a
/// test sees the screen as a person would and presses keys as a person would.
public final class TerminalSession {
    /// The tmux server's socket, private to this session.
    private let socket: String
    private let folder: TemporaryFolder
    private(set) var closed = false

    /// Starts `command` (a shell command line) with `environment` (the whole of it) in a
    /// `columns`×`rows` terminal. The pane stays after the command ends, so its last screen and
    /// exit status can be read.
    public init(command: String, environment: [String], columns: Int = 100, rows: Int = 30) throws {
        folder = TemporaryFolder(prefix: "utter-tmux")
        socket = folder.file("tmux.sock")
        let script = folder.file("run.sh")
        // The environment goes through a script: tmux's server would give the command its own.
        let exports = environment.map { "export " + Self.quoted($0) }.joined(separator: "\n")
        writeFile(script, "\(exports)\n\(command)\necho \"[exit $?]\"\nexec sleep 600\n")
        let started = tmux(
            "-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "/bin/sh " + script)
        guard started.status == 0 else {
            throw SpawnError(what: "tmux new-session: \(started.standardError)", code: EINVAL)
        }
    }

    /// The screen as it is now, a line per row, trailing spaces and empty trailing rows left out;
    /// with `escapes`, with the escape sequences of its colours and attributes.
    public func screen(escapes: Bool = false) -> String {
        let capture = tmux("capture-pane", "-p", "-J", escapes ? "-e" : "-N", "-t", "0")
        var lines = capture.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop(while: { $0 == " " }).reversed())
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// Presses keys, in tmux's names: `"Space"`, `"q"`, `"C-c"`, `"Enter"`, `"Up"`.
    public func send(_ keys: String...) {
        _ = tmux(["send-keys", "-t", "0"] + keys)
    }

    /// Waits until the screen holds `text`, for at most `seconds`; false if it did not.
    public func waitFor(_ text: String, seconds: Double = 20) -> Bool {
        waitUntil(seconds: seconds) { $0.contains(text) }
    }

    /// Waits until `condition` holds for the screen, for at most `seconds`.
    public func waitUntil(seconds: Double = 20, _ condition: (String) -> Bool) -> Bool {
        eventually(within: seconds, every: 0.02) { condition(screen()) }
    }

    /// The command's exit status once it has ended (the screen shows `[exit N]`), waiting at most
    /// `seconds`; nil if it is still running.
    public func exitStatus(seconds: Double = 20) -> Int32? {
        guard waitUntil(seconds: seconds, { $0.contains("[exit ") }) else { return nil }
        let screen = screen()
        guard let start = screen.ranges(of: "[exit ").last else { return nil }
        return Int32(screen[start.upperBound...].prefix(while: { $0.isNumber || $0 == "-" }))
    }

    /// Ends the session and its tmux server.
    public func close() {
        guard !closed else { return }
        closed = true
        _ = tmux("kill-server")
    }

    deinit { close() }

    @discardableResult
    private func tmux(_ arguments: String...) -> ChildProcess {
        tmux(arguments)
    }

    private func tmux(_ arguments: [String]) -> ChildProcess {
        ChildProcess.run(
            ["/usr/bin/tmux", "-S", socket] + arguments,
            environment: ["PATH=/usr/bin:/bin", "LANG=C.UTF-8", "TERM=xterm-256color", "HOME=\(folder.path)"],
            timeout: 10)
    }

    private static func quoted(_ assignment: String) -> String {
        guard let equals = assignment.firstIndex(of: "=") else { return assignment }
        let value = assignment[assignment.index(after: equals)...].replacing("'", with: "'\\''")
        return assignment[..<equals] + "='" + value + "'"
    }
}

/// A process that could not be started.
public struct SpawnError: Error, CustomStringConvertible {
    public let what: String
    public let code: Int32
    public init(what: String, code: Int32) {
        self.what = what
        self.code = code
    }
    public var description: String { "\(what) failed: \(String(cString: strerror(code)))" }
}
