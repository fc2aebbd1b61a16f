public import Glibc
import System

/// A scratch folder with an ALSA `file` device that captures everything the module plays.
public struct CaptureRig: ~Copyable {
    private let temporary = TemporaryFolder(prefix: "utter-module-test")
    public var folder: String { temporary.path }
    public var capturePath: String { folder + "/out.raw" }
    public var logPath: String { folder + "/module.log" }

    public init() {
        // testing.md §1: a `file` PCM over `null`, with an explicit buffer set by the module.
        writeFile(
            folder + "/.asoundrc",
            """
            pcm.utter_capture { type file slave.pcm "utter_sink" file "\(capturePath)" format "raw" }
            pcm.utter_sink { type null }

            """)
    }

    /// What the module wrote to stderr, its log.
    public var log: String { readText(logPath) }

    /// The captured samples (S16_LE mono).
    public func samples() -> [Int16] {
        littleEndianSamples(readFile(capturePath) ?? [])
    }
}


/// sd_utter, started on pipes as speech-dispatcher starts it.
public final class ModuleProcess {
    public let pid: pid_t
    private let logPath: String
    private var input: Int32
    private let output: Int32
    private var closedOutput = false
    public private(set) var received: [UInt8] = []
    private var consumed = 0

    /// Starts the module with `HOME` = `home` (for its `.asoundrc`) and stderr to `logPath`.
    /// `boundByPermissions` starts it without root's power to read and search any file, so that a
    /// file or folder of mode 000 is as unreadable to it as it would be to a user's module.
    public init(
        home: String, logPath: String, configurationPath: String = "/nonexistent/utter.conf",
        boundByPermissions: Bool = false, environment extra: [String] = []
    ) throws {
        // Close-on-exec: tests spawn modules in parallel, and a pipe end inherited by another child
        // would keep a closed stdout readable and a closed stdin writable.
        let toModule: [Int32]
        let fromModule: [Int32]
        switch (Pipe.closeOnExec(), Pipe.closeOnExec()) {
        case (.success(let to), .success(let from)):
            toModule = [to.read, to.write]
            fromModule = [from.read, from.write]
        case (.failure(let error), _), (_, .failure(let error)):
            throw SpawnError(what: "pipe", code: error.code)
        }
        var arguments = [modulePath(), configurationPath]
        if boundByPermissions && geteuid() == 0 {
            // Dropped from the bounding and inheritable sets, the capabilities cannot come back at exec.
            let capabilities = "-dac_override,-dac_read_search"
            arguments =
                ["/usr/bin/setpriv", "--inh-caps=\(capabilities)", "--bounding-set=\(capabilities)", "--"] + arguments
        }
        var environment = ["HOME=\(home)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"]
        // A test's own XDG_RUNTIME_DIR (the history socket's folder; empty: none) replaces the runner's.
        if let runtime = getenv("XDG_RUNTIME_DIR"), !extra.contains(where: { $0.hasPrefix("XDG_RUNTIME_DIR=") }) {
            environment.append("XDG_RUNTIME_DIR=\(String(cString: runtime))")
        }
        environment += extra
        // The spawning thread's signal mask, as ever: a SIGTERM sent before the module's signalfd
        // takes it stays pending rather than ending the module.
        pid = try spawnChild(
            arguments, environment: environment, input: .descriptor(toModule[0]), output: .descriptor(fromModule[1]),
            error: .file(logPath), closing: toModule + fromModule, signals: .inherited)
        self.logPath = logPath
        close(toModule[0])
        close(fromModule[1])
        input = toModule[1]
        output = fromModule[0]
    }

    deinit {
        if input >= 0 { close(input) }
        if !closedOutput { close(output) }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// Writes `text` to the module's stdin.
    public func send(_ text: String) {
        sendBytes(Array(text.utf8))
    }

    /// Writes `bytes` to the module's stdin.
    public func sendBytes(_ bytes: [UInt8]) {
        var bytes = bytes
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(input, $0.baseAddress! + offset, $0.count - offset) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Sends QUIT, expects exactly its reply, and waits for the exit; the exit status, or nil.
    public func quit() -> Int32? {
        send("QUIT\n")
        guard expect("210 OK QUIT\n") == "210 OK QUIT\n" else { return nil }
        return waitForExit(within: 5)
    }

    /// Closes our end of the module's stdout, as a server that stopped reading would.
    public func closeOutput() {
        close(output)
        closedOutput = true
    }

    /// Closes the module's stdin (the server went away).
    public func closeInput() {
        close(input)
        input = -1
    }

    /// Reads until `text` has arrived after what earlier calls consumed; returns everything up to
    /// and including it, or nil after `seconds` (the test then fails instead of hanging).
    public func expect(_ text: String, within seconds: Double = 20) -> String? {
        let needle = Array(text.utf8)
        let deadline = monotonicSeconds() + seconds
        while true {
            if let range = find(needle, from: consumed) {
                let result = String(decoding: received[consumed..<range], as: UTF8.self)
                consumed = range
                return result
            }
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0, readMore(timeout: remaining) else { return nil }
        }
    }

    /// Everything received and not yet consumed, after waiting `seconds` for more.
    public func drain(waiting seconds: Double) -> String {
        let deadline = monotonicSeconds() + seconds
        while case let remaining = deadline - monotonicSeconds(), remaining > 0, readMore(timeout: remaining) {}
        let result = String(decoding: received[consumed...], as: UTF8.self)
        consumed = received.count
        return result
    }

    /// Waits for the process to exit; its status, or nil on timeout.
    public func waitForExit(within seconds: Double) -> Int32? {
        let deadline = monotonicSeconds() + seconds
        while monotonicSeconds() < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
                if code != 0 { showLog(because: "exited with status \(code)") }
                return code
            }
            usleep(5000)
        }
        showLog(because: "did not exit within \(seconds) s")
        return nil
    }

    /// Who holds the pipe of the module's stdout, and where each of the module's threads waits:
    /// for a test in which the module should have found its stdout closed and did not.
    public func outputPipeReport() -> String {
        func link(_ path: String) -> String? {
            var buffer = [CChar](repeating: 0, count: 256)
            let count = readlink(path, &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        func text(_ path: String) -> String {
            readText(path).split(separator: "\n").first.map(String.init) ?? "?"
        }
        guard let pipe = link("/proc/\(pid)/fd/1") else { return "the module's stdout cannot be read" }
        var holders: [String] = []
        if let processes = opendir("/proc") {
            while let entry = readdir(processes) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard let process = Int32(name), let fds = opendir("/proc/\(process)/fd") else { continue }
                while let fd = readdir(fds) {
                    let number = withUnsafeBytes(of: fd.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                    if Int(number) != nil, link("/proc/\(process)/fd/\(number)") == pipe {
                        holders.append("\(process) (\(text("/proc/\(process)/comm"))) fd \(number)")
                    }
                }
                closedir(fds)
            }
            closedir(processes)
        }
        var threads: [String] = []
        if let tasks = opendir("/proc/\(pid)/task") {
            while let entry = readdir(tasks) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard Int(name) != nil else { continue }
                threads.append("\(text("/proc/\(pid)/task/\(name)/comm")): \(text("/proc/\(pid)/task/\(name)/wchan"))")
            }
            closedir(tasks)
        }
        return "stdout \(pipe) held by \(holders.joined(separator: ", ")); threads waiting in \(threads.joined(separator: ", "))"
    }

    /// Prints the end of the module's log to the runner's stderr: the test's folder, and the log
    /// with it, is gone when the run ends, and a sanitizer's report (TSan exits 66) is in that log.
    private func showLog(because reason: String) {
        let log = readText(logPath)
        let tail = log.count > 8000 ? "…" + log.suffix(8000) : Substring(log)
        let report = Array("sd_utter (pid \(pid)) \(reason); the end of its log \(logPath):\n\(tail)\n".utf8)
        _ = report.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard received.count - start >= needle.count else { return nil }
        var index = start
        while index + needle.count <= received.count {
            if received[index] == needle[0] && Array(received[index..<(index + needle.count)]) == needle {
                return index + needle.count
            }
            index += 1
        }
        return nil
    }

    private func readMore(timeout: Double) -> Bool {
        var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000) + 1) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        received += buffer[0..<count]
        return true
    }
}

/// The built sd_utter: next to the test bundle, as SwiftPM builds every product into one folder.
public func modulePath() -> String {
    let runner = CommandLine.arguments[0]
    var folder = String(runner[..<(runner.lastIndex(of: "/") ?? runner.startIndex)])
    if folder.hasSuffix(".xctest/Contents/MacOS") { folder = String(folder.dropLast(".xctest/Contents/MacOS".count)) }
    let candidate = folder + "/sd_utter"
    if access(candidate, X_OK) == 0 { return candidate }
    let root = String(#filePath.dropLast("/Tests/TestSupport/ModuleProcess.swift".count))
    return root + "/.build/debug/sd_utter"
}

/// The repository's key name tables.
public var keyTablesFolder: String {
    String(#filePath.dropLast("/Tests/TestSupport/ModuleProcess.swift".count)) + "/conf/keys"
}

/// The built utter command, beside sd_utter.
public var utterPath: String { String(modulePath().dropLast("sd_utter".count)) + "utter" }
