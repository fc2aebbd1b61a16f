// A private speech-dispatcher 0.11.4 with sd_utter as its only module, run as plain processes
// in a scratch folder (docs: testing.md §1-§3). Everything it starts is ended by PID.
public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where things are. The module binary is found, in this order:
/// `$UTTER_MODULE` (any module binary, e.g. sd_espeak-ng to check the harness itself),
/// next to the test runner (`swift test` puts it beside sd_utter),
/// `<package>/.build/debug/sd_utter`, `<package>/.build/release/sd_utter`.
public enum Paths {
    /// Tests/ServerTests, where the SSIP client scripts the rig runs live.
    public static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("ServerTests")
    public static let packageRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    public static let clientScript = testsDirectory.appendingPathComponent("Clients/session.py").path
    public static let python = "/usr/bin/python3"  // Debian's, which has python3-speechd

    public static func moduleBinary() throws -> String {
        let fm = FileManager.default
        if let explicit = ProcessInfo.processInfo.environment["UTTER_MODULE"], !explicit.isEmpty {
            guard fm.isExecutableFile(atPath: explicit) else {
                throw RigError("UTTER_MODULE=\(explicit) is not an executable file")
            }
            return explicit
        }
        var candidates: [String] = []
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(runner.deletingLastPathComponent().appendingPathComponent("sd_utter").path)
        for configuration in ["debug", "release"] {
            candidates.append(
                packageRoot.appendingPathComponent(".build/\(configuration)/sd_utter").path)
        }
        for candidate in candidates where fm.isExecutableFile(atPath: candidate) {
            return URL(fileURLWithPath: candidate).standardizedFileURL.path
        }
        throw RigError("sd_utter not found; looked at \(candidates)")
    }

    /// Absolute path of a program on PATH (or the standard Debian places).
    public static func program(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let dirs = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/sbin"]
        for dir in dirs {
            let candidate = dir + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw RigError("\(name) is not installed (see .ci/run for the package list)")
    }
}

public struct RigError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The result of a finished child process.
public struct Finished {
    public let status: Int32
    public let stdout: String
    public let stderr: String
    public let timedOut: Bool
    public var succeeded: Bool { !timedOut && status == 0 }
}

/// A private speech-dispatcher whose only module is the module under test.
public final class ServerRig {
    public enum Device {
        /// ALSA `file` PCM over `null`: unpaced, every written sample lands in `capture`.
        case unpaced
        /// ALSA `file` PCM over ALSA's `pulse` plugin into a private PulseAudio null sink:
        /// writes block in real time; every written sample still lands in `capture`.
        case paced
    }

    public let name: String
    public let dir: URL
    public let runDir: URL
    public let capture: URL
    public let module: String
    private var pulse: Child?
    private var server: Child?
    private var children: [Child] = []
    private var shutDown = false
    public private(set) var failed = false
    private var notes: [String] = []

    /// The environment given to the server (and so to the module) and to clients.
    public let environment: [String: String]

    /// `prepare` runs in the rig's folder (the server's `HOME`) before the server starts.
    public init(_ name: String, device: Device, prepare: (URL) throws -> Void = { _ in }) async throws {
        self.name = name
        module = try Paths.moduleBinary()
        let base = URL(fileURLWithPath: NSTemporaryDirectory())
        var template = Array(base.appendingPathComponent("utter-\(name)-XXXXXX").path.utf8CString)
        let made: String? = template.withUnsafeMutableBufferPointer { buf in
            mkdtemp(buf.baseAddress!).map { String(cString: $0) }
        }
        guard let made else { throw RigError("mkdtemp failed: errno \(errno)") }
        dir = URL(fileURLWithPath: made)
        runDir = dir.appendingPathComponent("run")
        capture = dir.appendingPathComponent("out.raw")

        var env = ProcessInfo.processInfo.environment
        env["HOME"] = dir.path
        env["XDG_RUNTIME_DIR"] = dir.path
        env["XDG_CONFIG_HOME"] = dir.appendingPathComponent(".config").path
        env["XDG_DATA_HOME"] = dir.appendingPathComponent(".local/share").path
        env["LANG"] = "C.UTF-8"
        env["SPEECHD_ADDRESS"] = "unix_socket:" + runDir.appendingPathComponent("speechd.sock").path
        env["SPEECHD_CMD"] = "/bin/false"  // never autospawn another server
        env.removeValue(forKey: "ALSA_CONFIG_PATH")
        env.removeValue(forKey: "PULSE_SERVER")
        environment = env

        let fm = FileManager.default
        try fm.createDirectory(at: runDir.appendingPathComponent("log"), withIntermediateDirectories: true)
        try fm.createDirectory(
            at: dir.appendingPathComponent("conf/modules"), withIntermediateDirectories: true)
        // As installed: the key name tables from the repository.
        try write(
            "KeyNamesFolder \"\(Paths.packageRoot.appendingPathComponent("conf/keys").path)\"\n",
            to: "conf/modules/utter.conf")
        try write(
            """
            AddModule "utter" "\(module)" "utter.conf"
            DefaultModule utter
            DefaultVolume 100
            DefaultLanguage "en-US"
            AudioOutputMethod "alsa"
            AudioALSADevice "utter_capture"

            """, to: "conf/speechd.conf")

        do {
            // The `file` plugin appends through a pipe: a module that reopens the device for
            // every message (or after a pause) must not truncate what was captured before.
            let sink: String
            switch device {
            case .unpaced:
                sink = "pcm.utter_sink { type null }"
            case .paced:
                let socket = try await startPulse()
                sink = "pcm.utter_sink { type pulse server \"unix:\(socket)\" device \"utter_null\" }"
            }
            try write(
                """
                pcm.utter_capture {
                    type file
                    slave.pcm "utter_sink"
                    file "|cat >> '\(capture.path)'"
                    format "raw"
                }
                \(sink)

                """, to: ".asoundrc")
            try prepare(dir)
            try await startServer()
        } catch {
            failed = true
            note("set-up failed: \(error)")
            await shutdown()
            throw error
        }
    }

    // MARK: - Set-up

    private func write(_ text: String, to relative: String) throws {
        try text.write(to: dir.appendingPathComponent(relative), atomically: true, encoding: .utf8)
    }

    private func startPulse() async throws -> String {
        let pulseDir = dir.appendingPathComponent("pulse-rt")
        try FileManager.default.createDirectory(at: pulseDir, withIntermediateDirectories: true)
        chmod(pulseDir.path, 0o700)
        let socket = pulseDir.appendingPathComponent("native").path
        var env = environment
        env["XDG_RUNTIME_DIR"] = pulseDir.path
        let p = try spawn(
            try Paths.program("pulseaudio"),
            [
                "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
                "--disable-shm=yes",
                "-L", "module-null-sink sink_name=utter_null rate=22050 channels=1",
                "-L", "module-native-protocol-unix auth-anonymous=1 socket=\(socket)",
            ], env: env, log: "pulseaudio")
        pulse = p
        try await waitFor("PulseAudio socket \(socket)", timeout: .seconds(15)) {
            guard p.isRunning else {
                throw RigError("pulseaudio exited: \(p.terminationStatus ?? -1)")
            }
            return FileManager.default.fileExists(atPath: socket)
        }
        return socket
    }

    private func startServer() async throws {
        let sock = runDir.appendingPathComponent("speechd.sock").path
        let p = try spawn(
            try Paths.program("speech-dispatcher"),
            [
                "-s", "-t", "0", "-C", dir.appendingPathComponent("conf").path,
                "-c", "unix_socket", "-S", sock, "-L", runDir.appendingPathComponent("log").path,
                "-P", runDir.appendingPathComponent("speechd.pid").path, "-l", "5",
            ], env: environment, log: "server")
        server = p
        try await waitFor("server socket \(sock)", timeout: .seconds(15)) {
            guard p.isRunning else {
                throw RigError("speech-dispatcher exited: \(p.terminationStatus ?? -1)")
            }
            return FileManager.default.fileExists(atPath: sock)
        }
    }

    /// Starts a background process; stdout+stderr go to `<log>.out` in the scratch folder.
    private func spawn(_ exe: String, _ args: [String], env: [String: String], log: String) throws
        -> Child
    {
        try Child(exe, args, environment: env, output: dir.appendingPathComponent("\(log).out").path)
    }

    // MARK: - Running clients

    /// Runs a program to completion, or kills it when the deadline passes.
    public func run(_ exe: String, _ args: [String], timeout: Duration) async throws -> Finished {
        let tag = "\(children.count)-" + URL(fileURLWithPath: exe).lastPathComponent
        let outPath = dir.appendingPathComponent("client-\(tag).out").path
        let errPath = dir.appendingPathComponent("client-\(tag).err").path
        let p = try Child(exe, args, environment: environment, output: outPath, error: errPath)
        children.append(p)
        var timedOut = false
        if await !p.wait(timeout: timeout) {
            timedOut = true
            p.signal(SIGKILL)
            await p.wait(timeout: .seconds(5))
        }
        let stdout = readText(outPath)
        let stderr = readText(errPath)
        let status = p.terminationStatus ?? -1
        let result = Finished(status: status, stdout: stdout, stderr: stderr, timedOut: timedOut)
        note(
            "ran \(exe) \(args.map { $0.count > 60 ? String($0.prefix(60)) + "…" : $0 })"
                + " → \(timedOut ? "KILLED at deadline" : "status \(status)")\n"
                + "stdout:\n\(stdout.count > 4000 ? String(stdout.prefix(4000)) + "…" : stdout)"
                + "stderr:\n\(stderr)")
        return result
    }

    /// spd-say against this server.
    public func spdSay(_ args: [String], timeout: Duration = .seconds(30)) async throws -> Finished {
        try await run(try Paths.program("spd-say"), args, timeout: timeout)
    }

    /// Clients/session.py: one python3-speechd scenario; see that file for the output format.
    public func session(_ scenario: String, _ texts: [String], timeout: Duration = .seconds(120))
        async throws -> Session
    {
        // Hang guards, not measurements: a 16 s message paced in real time on two cores busy with
        // forty suites (or a sanitizer) has taken over 20 s from RESUME to END.
        let perWait = 45
        let finished = try await run(
            Paths.python, [Paths.clientScript, scenario, String(perWait)] + texts, timeout: timeout)
        return Session(finished)
    }

    // MARK: - Audio

    /// Everything the module wrote to the ALSA device, as S16_LE mono samples.
    /// Call after `shutdown()`, which closes the device and so flushes the `file` plugin.
    public func capturedSamples() async throws -> [Int16] {
        // The `cat` behind the file plugin's pipe may still be writing: wait until stable.
        var last = -1
        var stableSince = ContinuousClock.now
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            let size =
                (try? FileManager.default.attributesOfItem(atPath: capture.path)[.size] as? Int)
                ?? 0
            if size != last {
                last = size
                stableSince = ContinuousClock.now
            } else if ContinuousClock.now - stableSince >= .milliseconds(300) {
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        guard let data = FileManager.default.contents(atPath: capture.path) else { return [] }
        var samples = [Int16](repeating: 0, count: data.count / 2)
        data.withUnsafeBytes { raw in
            for i in 0..<samples.count {
                samples[i] = Int16(
                    littleEndian: Int16(bitPattern: UInt16(raw[2 * i]) | UInt16(raw[2 * i + 1]) << 8))
            }
        }
        return samples
    }

    // MARK: - Checks and diagnostics

    /// Remembers that a check failed, so that the logs are printed at the end (the test target's
    /// `check` records the issue itself: TestSupport is built with the products, without Testing).
    public func markFailed() { failed = true }

    public func note(_ text: String) { notes.append(text) }

    private func tail(_ relative: String, lines: Int) -> String {
        let url = relative.hasPrefix("/") ? URL(fileURLWithPath: relative) : dir.appendingPathComponent(relative)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return "(\(url.path): missing)"
        }
        let text = String(decoding: data, as: UTF8.self)
        let all = text.split(separator: "\n", omittingEmptySubsequences: false)
        let shown = all.suffix(lines).joined(separator: "\n")
        return (all.count > lines ? "… (\(all.count - lines) earlier lines in \(url.path))\n" : "") + shown
    }

    public func diagnostics() -> String {
        """
        ===== \(name): scratch folder \(dir.path) (kept), module \(module)
        ===== notes
        \(notes.joined(separator: "\n"))
        ===== run/log/utter.log (module stderr)
        \(tail("run/log/utter.log", lines: 200))
        ===== run/log/speech-dispatcher.log
        \(tail("run/log/speech-dispatcher.log", lines: 150))
        ===== server.out
        \(tail("server.out", lines: 30))
        ===== pulseaudio.out
        \(tail("pulseaudio.out", lines: 20))
        """
    }

    // MARK: - Teardown

    /// Ends everything this rig started, by PID: the server (SIGTERM, which sends the module
    /// STOP+QUIT), then, after a deadline, SIGKILL for the server, its descendants (the module
    /// and the file plugin's `cat`), clients, and PulseAudio. Idempotent.
    public func shutdown() async {
        if shutDown { return }
        shutDown = true
        var descendants: [pid_t] = []
        if let s = server, s.isRunning {
            descendants = Self.descendants(of: s.processIdentifier)
            s.signal(SIGTERM)
            await waitGone([s.processIdentifier] + descendants, timeout: .seconds(5))
            if s.isRunning {
                note("server ignored SIGTERM for 5 s: SIGKILL; \(Self.signalState(s.processIdentifier))")
            }
            s.signal(SIGKILL)
            await s.wait(timeout: .seconds(2))
            for pid in descendants where Self.alive(pid) {
                note("pid \(pid) (\(Self.command(pid))) still alive after server exit: SIGKILL")
                kill(pid, SIGKILL)
            }
        }
        for c in children where c.isRunning {
            c.signal(SIGKILL)
            await c.wait(timeout: .seconds(2))
        }
        if let p = pulse, p.isRunning {
            p.signal(SIGTERM)
            if await !p.wait(timeout: .seconds(3)) {
                p.signal(SIGKILL)
                await p.wait(timeout: .seconds(2))
            }
        }
    }

    /// Shutdown, then print diagnostics if anything failed; removes the scratch folder on success.
    public func finish(error: (any Error)? = nil) async {
        await shutdown()
        if let error {
            failed = true
            note("error: \(error)")
        }
        if failed {
            report(diagnostics())
        } else if ProcessInfo.processInfo.environment["UTTER_KEEP_SCRATCH"] == nil {
            try? FileManager.default.removeItem(at: dir)
        }
    }

    private func waitGone(_ pids: [pid_t], timeout: Duration) async {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline && pids.contains(where: Self.alive) {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    private static func alive(_ pid: pid_t) -> Bool {
        // A zombie counts as gone.
        guard kill(pid, 0) == 0 else { return false }
        return state(pid) != "Z"
    }

    private static func stat(_ pid: pid_t) -> (state: String, ppid: pid_t)? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 2, let ppid = pid_t(fields[1]) else { return nil }
        return (String(fields[0]), ppid)
    }

    private static func signalState(_ pid: pid_t) -> String {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/status") else { return "" }
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("State") || $0.hasPrefix("SigBlk") || $0.hasPrefix("SigIgn") }
            .joined(separator: ", ")
    }

    private static func state(_ pid: pid_t) -> String? { stat(pid)?.state }

    private static func command(_ pid: pid_t) -> String {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return "?" }
        return String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
    }

    public static func descendants(of root: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var parent: [pid_t: pid_t] = [:]
        for entry in entries {
            guard let pid = pid_t(entry), let s = stat(pid) else { continue }
            parent[pid] = s.ppid
        }
        var result: [pid_t] = []
        var frontier: Set<pid_t> = [root]
        while !frontier.isEmpty {
            let next = parent.filter { frontier.contains($0.value) }.map(\.key)
            result += next
            frontier = Set(next)
        }
        return result
    }

    private func waitFor(
        _ what: String, timeout: Duration, _ condition: () throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while try !condition() {
            if ContinuousClock.now >= deadline {
                throw RigError("timed out after \(timeout) waiting for \(what)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// Runs `body` against a fresh rig; always tears it down, printing logs if anything failed.
public func withServer(
    _ name: String, device: ServerRig.Device, prepare: (URL) throws -> Void = { _ in },
    _ body: (ServerRig) async throws -> Void
) async throws {
    let rig = try await ServerRig(name, device: device, prepare: prepare)
    do {
        try await body(rig)
    } catch {
        await rig.finish(error: error)
        throw error
    }
    await rig.finish()
}

/// The parsed output of Clients/session.py.
public struct Session {
    public struct Event: Equatable, CustomStringConvertible {
        public let message: Int
        public let type: String
        public let mark: String?
        public var description: String { mark.map { "\(type)(\($0))" } ?? type }

        public init(message: Int, type: String, mark: String?) {
            self.message = message
            self.type = type
            self.mark = mark
        }
    }

    public let finished: Finished
    public let events: [Event]
    public let actions: [(name: String, message: Int?)]
    public let done: Bool
    public let errors: [String]

    public init(_ finished: Finished) {
        self.finished = finished
        var events: [Event] = []
        var actions: [(String, Int?)] = []
        var done = false
        var errors: [String] = []
        for line in finished.stdout.split(separator: "\n") {
            let f = line.split(separator: " ", maxSplits: 3).map(String.init)
            switch f.first {
            case "event" where f.count >= 3:
                events.append(
                    Event(message: Int(f[1]) ?? -1, type: f[2], mark: f.count > 3 ? f[3] : nil))
            case "action" where f.count >= 2:
                actions.append((f[1], f.count > 2 ? Int(f[2]) : nil))
            case "done":
                done = true
            case "error":
                errors.append(String(line))
            default:
                break
            }
        }
        self.events = events
        self.actions = actions
        self.done = done
        self.errors = errors
    }

    /// Message id of the n-th `speak` action.
    public func spoken(_ n: Int) -> Int? {
        let ids = actions.filter { $0.name == "speak" }.compactMap(\.message)
        return n < ids.count ? ids[n] : nil
    }

    public func events(of message: Int?) -> [Event] { events.filter { $0.message == message } }

    public var ok: Bool { finished.succeeded && done && errors.isEmpty }
}

/// Audio measures on S16 samples.
public enum Audio {
    public static let rate = 22050

    public static func seconds(_ count: Int) -> String {
        String(format: "%.3f s", Double(count) / Double(rate))
    }
}
