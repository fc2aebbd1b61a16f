import Glibc
import History
import System
import TestSupport
import Testing

/// A module with its own XDG_RUNTIME_DIR, and `utter history` run against it as the user runs it.
private struct HistoryRig: ~Copyable {
    let capture = CaptureRig()
    let runtime = TemporaryFolder(prefix: "utter-run")
    let module: ModuleProcess

    init(historySize: Int? = nil) throws {
        let configuration = capture.folder + "/utter.conf"
        writeFile(configuration, historySize.map { "HistorySize \($0)\n" } ?? "")
        module = try startModule(
            capture, configurationPath: configuration, environment: ["XDG_RUNTIME_DIR=\(runtime.path)"])
    }

    var folder: String { runtime.path + "/utter" }
    var socketPath: String { folder + "/history-\(module.pid).socket" }

    var utter: String { utterPath }

    /// `utter history` with `arguments`, as `user` (nil: this process's user).
    func history(_ arguments: [String], as user: String? = nil) -> ChildProcess {
        var command = [utter, "history"] + arguments
        if let user {
            command = ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=nogroup", "--clear-groups", "--"] + command
        }
        return ChildProcess.run(
            command,
            environment: [
                "XDG_RUNTIME_DIR=\(runtime.path)", "HOME=\(capture.folder)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8",
                "TZ=UTC",
            ])
    }

    /// Speaks `text` through the module as the server does and waits for its `702 END`; the samples it played.
    func speakToEnd(_ text: String, command: String = "SPEAK", language: String = "en-US") -> Int {
        let before = capture.samples().count
        speak(module, text, command: command, settings: settingsBlock(language: language))
        #expect(module.expect("702 END\n")?.hasSuffix("702 END\n") == true)
        return capture.samples().count - before
    }

    /// The module's RSS once a message has played to its end: the synth thread idle, nothing in flight.
    func idleResidentKilobytes() -> Int {
        _ = speakToEnd("<speak>Quiet.</speak>")
        usleep(100_000)
        return residentKilobytes(module.pid)
    }

    /// How many lines of the module's log contain `text`.
    func logLines(containing text: String) -> Int {
        capture.log.split(separator: "\n").filter { $0.contains(text) }.count
    }

    /// Waits until the capture holds `count` samples more than `start`; how many it got.
    func awaitSamples(after start: Int, atLeast count: Int, within seconds: Double = 20) -> Int {
        let deadline = monotonicSeconds() + seconds
        var grown = 0
        while monotonicSeconds() < deadline {
            grown = capture.samples().count - start
            if grown >= count { break }
            usleep(20_000)
        }
        return grown
    }
}

@Suite struct HistoryModuleTests {
    @Test func `messages are kept as heard, listed newest first with their fields, and bounded at HistorySize`() throws
    {
        let rig = try HistoryRig(historySize: 3)
        _ = rig.speakToEnd("<speak>First.</speak>")
        _ = rig.speakToEnd("<speak>Hello &amp; <mark name=\"x\"/>world.</speak>")
        _ = rig.speakToEnd("a", command: "CHAR")
        _ = rig.speakToEnd("<speak>Guten Tag.</speak>", language: "de")

        let list = rig.history([])
        #expect(list.status == 0, "\(list.standardError)")
        let lines = list.standardOutput.split(separator: "\n")
        #expect(lines.count == 3, "\(list.standardOutput)")
        let fields = lines.map { $0.split(separator: "  ", maxSplits: 4).map(String.init) }
        #expect(fields.map { $0.first } == ["1", "2", "3"])
        #expect(
            fields.map { Array($0.dropFirst(2)) } == [
                ["German", "de", "Guten Tag."], ["English (America)", "en-US", "[char] a"],
                ["English (America)", "en-US", "Hello & world."],
            ])
        #expect(fields.allSatisfy { $0.count == 5 && $0[1].count == 8 && $0[1].filter { $0 == ":" }.count == 2 })

        let json = rig.history(["--json"])
        #expect(json.status == 0, "\(json.standardError)")
        let output = json.standardOutput
        #expect(output.hasPrefix("{\"module\":\(rig.module.pid),\"messages\":[{\"number\":1,\"time\":"))
        #expect(
            output.contains(",\"kind\":\"speak\",\"voice\":\"German\",\"language\":\"de\",\"text\":\"Guten Tag.\"}"))
        #expect(
            output.contains(",\"kind\":\"char\",\"voice\":\"English (America)\",\"language\":\"en-US\",\"text\":\"a\"}")
        )
        #expect(output.contains("\"text\":\"Hello & world.\"}]}\n"))
        #expect(!output.contains("First."))
        // Times in milliseconds since 1970, the newest first.
        let times = output.split(separator: "\"time\":").dropFirst().compactMap { Int64($0.prefix { $0.isNumber }) }
        #expect(times.count == 3 && times == times.sorted(by: >) && times[0] > 1_700_000_000_000)
    }

    @Test func `replay speaks the message again on the device without an event to the server`() throws {
        let rig = try HistoryRig()
        let played = rig.speakToEnd("<speak>Hello from the history.</speak>")
        #expect(played > 11025)
        let start = rig.capture.samples().count
        let replay = rig.history(["--replay"])
        #expect(replay.status == 0, "\(replay.standardError)")
        #expect(replay.standardOutput == "Replaying 1: Hello from the history.\n")
        let grown = rig.awaitSamples(after: start, atLeast: played * 9 / 10)
        #expect(grown >= played * 9 / 10, "replay played \(grown) samples of \(played)")
        #expect(rootMeanSquare(rig.capture.samples()[start...]) > 500)
        #expect(rig.module.drain(waiting: 0.5) == "", "speech-dispatcher hears nothing of a replay")
        #expect(rig.capture.log.contains("replaying a message from the history"))
        // Nothing was added: a replay is not a new message.
        #expect(rig.history([]).standardOutput.split(separator: "\n").count == 1)
    }

    @Test func `a replay stops the server's message with 703, and the server's next message wins over a replay`()
        throws
    {
        let rig = try HistoryRig()
        // Long enough to be still speaking when the replay comes, though the file device plays
        // faster than real time.
        let long = "<speak>" + String(repeating: "This sentence is one of very many in a long text. ", count: 400)
        _ = rig.speakToEnd("<speak>Short one.</speak>")
        speak(rig.module, long + "</speak>")
        // The message speaking is the newest already: 2 is the one before it.
        let replay = rig.history(["--replay", "2"])
        #expect(replay.status == 0, "\(replay.standardError)")
        #expect(replay.standardOutput == "Replaying 2: Short one.\n")
        let events = try #require(rig.module.expect("703 STOP\n"))
        #expect(events == "703 STOP\n" || events == "701 BEGIN\n703 STOP\n", "\(events)")
        #expect(rig.module.drain(waiting: 0.3) == "", "nothing after the terminal event")

        // The long text replayed, then the server speaks, and wins: the replay is halted first.
        let halted = rig.logLines(containing: "replay halted")
        let longReplay = rig.history(["--replay", "1"])
        #expect(longReplay.standardOutput.hasPrefix("Replaying 1: This sentence is one of very many"))
        speak(rig.module, "<speak>Short.</speak>")
        #expect(rig.module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        #expect(rig.logLines(containing: "replay halted") == halted + 1)

        // STOP from the server silences a replay and sends nothing.
        #expect(rig.history(["--replay", "2"]).standardOutput.hasPrefix("Replaying 2: This sentence"))
        rig.module.send("STOP\n")
        #expect(rig.module.drain(waiting: 0.3) == "")
        #expect(rig.logLines(containing: "replay halted") == halted + 2)
        speak(rig.module, "<speak>Again.</speak>")
        #expect(rig.module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        #expect(rig.module.quit() == 0)
    }

    @Test func `save renders the message to a WAV of about its length, and bad numbers are refused`() throws {
        let rig = try HistoryRig()
        let played = rig.speakToEnd("<speak>This sentence is saved to a sound file.</speak>")
        let folder = TemporaryFolder()
        let path = folder.file("saved.wav")
        let save = rig.history(["--save", "1", path])
        #expect(save.status == 0, "\(save.standardError)")
        #expect(save.standardOutput == "Saved 1 to \(path): This sentence is saved to a sound file.\n")
        let file = try #require(SoundFileContents(path: path))
        #expect(rootMeanSquare(file.samples) > 500)
        let ratio = Double(file.samples.count) / Double(played)
        #expect(ratio > 0.8 && ratio < 1.25, "saved \(file.samples.count) samples, played \(played)")

        let outOfRange = rig.history(["--save", "4", folder.file("no.wav")])
        #expect(outOfRange.status != 0)
        #expect(outOfRange.standardError == "Error: There is no message 4: the history holds 1 to 1.\n")
        #expect(!FileSystem.exists(folder.file("no.wav")))
        let replayOut = rig.history(["--replay", "2"])
        #expect(replayOut.status != 0)
        #expect(replayOut.standardError == "Error: There is no message 2: the history holds 1 to 1.\n")
        let zero = rig.history(["--replay", "0"])
        #expect(zero.standardError.hasPrefix("Error: The message number must be 1 or more, got '0'."))
    }

    @Test func `the folder is private, the socket the user's alone, and gone after QUIT`() throws {
        let rig = try HistoryRig()
        let folder = try FileSystem.ownership(of: rig.folder)
        #expect(folder.isDirectory && folder.mode == 0o700 && folder.owner == getuid())
        let socket = try FileSystem.ownership(of: rig.socketPath)
        #expect(socket.mode == 0o600 && socket.owner == getuid())
        #expect(rig.module.quit() == 0)
        #expect(!FileSystem.exists(rig.socketPath))
    }

    @Test func `SIGTERM removes the socket, and a stale one from a crashed module is cleared`() throws {
        let rig = try HistoryRig()
        #expect(FileSystem.exists(rig.socketPath))
        kill(rig.module.pid, SIGTERM)
        #expect(rig.module.waitForExit(within: 5) == 0)
        #expect(!FileSystem.exists(rig.socketPath))

        // A socket no one listens on any more, as a killed module leaves it.
        let stale = rig.folder + "/history-999999.socket"
        do { _ = try LocalSocket.listening(at: stale, mode: 0o600) }
        #expect(FileSystem.exists(stale))
        let second = try startModule(
            rig.capture, environment: ["XDG_RUNTIME_DIR=\(rig.runtime.path)"])
        #expect(!FileSystem.exists(stale))
        #expect(FileSystem.exists(rig.folder + "/history-\(second.pid).socket"))
        #expect(second.quit() == 0)
    }

    @Test func `two modules keep a socket each, and utter history asks the one that spoke last`() throws {
        let rig = try HistoryRig()
        let otherCapture = CaptureRig()
        let other = try startModule(otherCapture, environment: ["XDG_RUNTIME_DIR=\(rig.runtime.path)"])
        let otherSocket = rig.folder + "/history-\(other.pid).socket"
        #expect(FileSystem.exists(rig.socketPath) && FileSystem.exists(otherSocket))
        _ = rig.speakToEnd("<speak>From the first module.</speak>")
        speak(other, "<speak>From the second module.</speak>")
        #expect(other.expect("702 END\n") == "701 BEGIN\n702 END\n")
        #expect(rig.history([]).standardOutput.hasSuffix("  From the second module.\n"))
        _ = rig.speakToEnd("<speak>The first again.</speak>")
        let list = rig.history([]).standardOutput.split(separator: "\n")
        #expect(
            list.count == 2 && list[0].hasSuffix("  The first again.") && list[1].hasSuffix("  From the first module."))
        // One leaving takes only its own socket.
        #expect(other.quit() == 0)
        #expect(!FileSystem.exists(otherSocket) && FileSystem.exists(rig.socketPath))
    }

    @Test func `another user is refused, by the folder and by the module's peer check`() throws {
        let rig = try HistoryRig()
        _ = rig.speakToEnd("<speak>Private words.</speak>")
        let blocked = rig.history([], as: "nobody")
        #expect(blocked.status != 0)
        #expect(!blocked.standardOutput.contains("Private"))
        // With the folder and socket opened to all, the module itself still says no.
        try FileSystem.setMode(rig.runtime.path, 0o755)
        try FileSystem.setMode(rig.folder, 0o755)
        try FileSystem.setMode(rig.socketPath, 0o666)
        let refused = rig.history([], as: "nobody")
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("This module belongs to another user."), "\(refused.standardError)")
        #expect(!refused.standardOutput.contains("Private"))
        #expect(rig.capture.log.contains("history socket: refused a client of uid 65534"))
        // And the module goes on serving its own user.
        #expect(rig.history([]).standardOutput.contains("Private words."))
    }

    @Test func `bad requests get an error line, an idle client holds nothing up, and the module keeps serving`()
        throws
    {
        let rig = try HistoryRig()
        _ = rig.speakToEnd("<speak>Still here.</speak>")
        // Connected and silent, as a stuck client would be: nothing waits for it.
        let idle = try LocalSocket.connected(to: rig.socketPath, timeoutMilliseconds: 5000)
        for (request, reply) in [
            ("HELLO\n", "ERR Unknown request: this utter and this module differ in version?\n"),
            ("REPLAY x\n", "ERR Unknown request: this utter and this module differ in version?\n"),
            ("REPLAY 9\n", "ERR There is no message 9: the history holds 1 to 1.\n"),
            (String(repeating: "L", count: 300), "ERR The request is too long.\n"),
        ] {
            let socket = try LocalSocket.connected(to: rig.socketPath, timeoutMilliseconds: 5000)
            var text = request
            #expect(text.withUTF8 { socket.sendAll(UnsafeRawBufferPointer($0)) } == nil)
            let answer = try socket.receiveAll(limit: 4096).get()
            #expect(String(decoding: answer, as: UTF8.self) == reply, "\(request.prefix(20))")
        }
        speak(rig.module, "<speak>Spoken between requests.</speak>")
        #expect(rig.module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        #expect(try historyList(at: rig.socketPath).map(\.text) == ["Spoken between requests.", "Still here."])
        _ = idle
        #expect(rig.logLines(containing: "history socket: unknown request") == 2)
        #expect(rig.module.quit() == 0)
    }

    @Test func `HistorySize 0 keeps nothing and opens no socket`() throws {
        let rig = try HistoryRig(historySize: 0)
        _ = rig.speakToEnd("<speak>Not kept.</speak>")
        #expect(!FileSystem.exists(rig.socketPath))
        #expect(rig.capture.log.contains("HistorySize 0: no speech history is kept and no history socket is opened"))
        let list = rig.history([])
        #expect(list.status != 0)
        #expect(
            list.standardError
                == "Error: The running Utter module keeps no history: utter.conf sets HistorySize 0, or speech-dispatcher started it without XDG_RUNTIME_DIR.\n"
        )
    }

    @Test func `without XDG_RUNTIME_DIR the module keeps no history and says so once`() throws {
        let capture = CaptureRig()
        let module = try startModule(capture, environment: ["XDG_RUNTIME_DIR="])
        speak(module, "<speak>Hello.</speak>")
        #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        speak(module, "<speak>Hello again.</speak>")
        #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        #expect(module.quit() == 0)
        let said = capture.log.split(separator: "\n").filter {
            $0.contains("no speech history: XDG_RUNTIME_DIR is not set")
        }
        #expect(said.count == 1, "\(capture.log)")
    }

    @Test func `a user with no module running is told so`() {
        let runtime = TemporaryFolder(prefix: "utter-run")
        // nobody runs no module; the folder must be theirs to search.
        _ = chown(runtime.path, 65534, 65534)
        let run = ChildProcess.run(
            [
                "/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--",
                utterPath, "history",
            ],
            environment: ["XDG_RUNTIME_DIR=\(runtime.path)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"])
        #expect(run.status != 0)
        #expect(
            run.standardError
                == "Error: No Utter module is running: speech-dispatcher starts it when something speaks with it.\n")
    }

    @Test func `a storm of 10,000 messages keeps the history bounded and the module's RSS flat`() throws {
        let rig = try HistoryRig(historySize: 50)
        var random = SeededGenerator(seed: 0x4157)
        var baseline = 0
        // Texts of 1 to 36 words, each stopped at once: 10,000 entries (each a new string) through a
        // 50-entry ring. A fixed set: with a number in each text (0 to 9,999), or words drawn anew
        // each time, RSS moved by up to 6 MB over the storm with no history at all (the engine's own
        // allocations), which is not what this test is about.
        let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota"]
        let texts = (0..<8).map { length in (0...(length * 5)).map { words[$0 % words.count] }.joined(separator: " ") }
        for round in 0..<10_000 {
            if round == 1000 { baseline = rig.idleResidentKilobytes() }
            let text = texts[Int(random.next() % UInt64(texts.count))]
            speak(rig.module, "<speak>\(text).</speak>", followedBy: "STOP\n")
            guard let end = rig.module.expect("703 STOP\n"), end.hasSuffix("703 STOP\n") else {
                Issue.record("round \(round): no 703")
                return
            }
            if round % 1000 == 999 {
                let reply = try historyList(at: rig.socketPath)
                #expect(reply.count == 50)
                #expect(reply.first?.text == "\(text).")
            }
        }
        let end = rig.idleResidentKilobytes()
        report("history storm: RSS \(baseline) kB at message 1,000 → \(end) kB at 10,000")
        #expect(
            end - baseline < 1024 || getenv("UTTER_SANITIZER") != nil, "RSS grew by \(end - baseline) KiB")
        #expect(rig.module.quit() == 0)
    }
}

/// The module's list, asked over its socket directly.
private func historyList(at path: String) throws -> [HistoryEntry] {
    let socket = try LocalSocket.connected(to: path, timeoutMilliseconds: 5000)
    var request = HistoryRequest.list.encoded
    _ = request.withUTF8 { socket.sendAll(UnsafeRawBufferPointer($0)) }
    let bytes = try socket.receiveAll(limit: 1 << 20).get()
    guard case .entries(let entries) = HistoryReply(String(decoding: bytes, as: UTF8.self)) else { return [] }
    return entries
}

@Test func `utter history's help and usage errors are exact`() {
    let utter = utterPath
    let help = ChildProcess.run([utter, "history", "--help"])
    #expect(help.status == 0)
    #expect(
        help.standardOutput == """
            OVERVIEW: List what the Utter module just said; speak or save a message again.

            speech-dispatcher's Utter module keeps its last messages in memory
            (utter.conf's HistorySize, 50 by default) and answers on a socket in
            $XDG_RUNTIME_DIR/utter that only you can open. Messages are numbered from the
            newest, 1. With several modules running, the one that spoke last answers.

            USAGE: utter history [--json] [--replay] [--save] [<number>] [<file>]

            ARGUMENTS:
              <number>                The message, counted from the newest (1), for
                                      --replay and --save.
              <file>                  With --save, the sound file to write.

            OPTIONS:
              --json                  Print the messages as JSON, for scripts.
              --replay                Speak message <number> (default 1, the newest) again
                                      through the module, interrupting it.
              --save                  Render message <number> to <file> (.wav, .flac, .ogg,
                                      …) with its voice.
              --version               Show the version.
              -h, --help              Show help information.


            """)
    let usage =
        "Usage: utter history [--json] [--replay] [--save] [<number>] [<file>]\n"
        + "  See 'utter history --help' for more information.\n"
    for (arguments, error) in [
        (["3"], "Unexpected argument '3': the list takes none (see --replay, --save)."),
        (["--replay", "1", "x.wav"], "--replay takes one message number."),
        (["--save", "1"], "--save needs the message number and a file: --save N FILE.wav."),
        (["--save", "x", "a.wav"], "The message number must be 1 or more, got 'x'."),
        (["--replay", "--save", "1", "a.wav"], "--replay and --save cannot be used together."),
        (["--json", "--replay"], "--json is for the list alone."),
    ] {
        let run = ChildProcess.run([utter, "history"] + arguments)
        #expect(run.status == 64, "\(arguments)")
        #expect(run.standardError == "Error: \(error)\n" + usage, "\(arguments)")
    }
    let noRuntime = ChildProcess.run([utter, "history"])
    #expect(noRuntime.status == 1)
    #expect(
        noRuntime.standardError
            == "Error: XDG_RUNTIME_DIR is not set, so there is no history socket to find (a login session sets it).\n")
}
