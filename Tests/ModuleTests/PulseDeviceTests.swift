import Glibc
import TestSupport
import Testing

/// A private PulseAudio with a real-time null sink (testing.md §2), started and ended by PID.
final class PrivatePulse {
    let runtime: String
    private(set) var pid: pid_t = 0
    var socket: String { runtime + "/native" }

    init(runtime: String) throws {
        self.runtime = runtime
        mkdir(runtime, 0o700)
        try start()
    }

    func start() throws {
        var child: pid_t = 0
        let arguments = [
            "/usr/bin/pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
            "-L", "module-null-sink sink_name=utter_null rate=22050 channels=1",
            "-L", "module-native-protocol-unix auth-anonymous=1 socket=\(socket)",
        ]
        let environment = ["HOME=\(runtime)", "XDG_RUNTIME_DIR=\(runtime)", "PATH=/usr/bin:/bin"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, runtime + "/pulse.log", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        let result = posix_spawn(&child, arguments[0], &actions, nil, argv, envp)
        guard result == 0 else { throw SpawnError(what: "posix_spawn pulseaudio", code: result) }
        pid = child
        // Ready when its socket exists.
        let deadline = monotonicSeconds() + 10
        while access(socket, F_OK) != 0 {
            guard monotonicSeconds() < deadline else {
                throw SpawnError(what: "waiting for pulseaudio", code: ETIMEDOUT)
            }
            usleep(10_000)
        }
    }

    /// Kills the daemon outright, as a crashing sound server would go.
    func kill() {
        guard pid > 0 else { return }
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        unlink(socket)
        pid = 0
    }

    deinit { kill() }
}

/// A private PulseAudio for `rig`, and the module playing through it, warmed up with one message.
private func startModuleOnPulse(_ rig: borrowing CaptureRig) throws -> (PrivatePulse, ModuleProcess) {
    let pulse = try PrivatePulse(runtime: rig.folder + "/pulse")
    writeFile(
        rig.folder + "/.asoundrc",
        "pcm.utter_paced { type pulse server \"unix:\(pulse.socket)\" device \"utter_null\" }\n")
    let module = try startModule(rig, device: "utter_paced")
    speak(module, "<speak>A warm-up for the sound server.</speak>")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    return (pulse, module)
}

@Test(.timeLimit(.minutes(1)))
func `the sound server dying mid-message ends it validly, and its return is picked up`() throws {
    let rig = CaptureRig()
    let (pulse, module) = try startModuleOnPulse(rig)

    speak(
        module,
        "<speak>" + String(repeating: "This long message is cut off when the sound server dies. ", count: 10)
            + "</speak>")
    #expect(module.expect("701 BEGIN\n") == "701 BEGIN\n")
    pulse.kill()
    #expect(module.expect("702 END\n", within: 30) == "702 END\n", "the message still ends")
    speak(module, "<speak>Nobody hears this.</speak>")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")

    try pulse.start()
    speak(module, "<speak>The sound server is back.</speak>")
    #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    let log = rig.log
    #expect(log.contains("audio device failed"), "the failure is logged: \(log.suffix(1500))")
    #expect(log.contains("could not open the device on 'utter_paced'"), "the failed reopen is logged")
}

@Test(.timeLimit(.minutes(1)))
func `a sound server that hangs cannot hold the module: STOP is answered and QUIT exits`() throws {
    let rig = CaptureRig()
    let (pulse, module) = try startModuleOnPulse(rig)
    // Stopped, as a sound server that deadlocks: its socket stays open but nothing answers.
    kill(pulse.pid, SIGSTOP)
    defer { kill(pulse.pid, SIGCONT) }
    speak(module, "<speak>" + String(repeating: "Nobody hears this message. ", count: 10) + "</speak>")
    module.send("STOP\n")
    let events = try #require(module.expect("703 STOP\n"))
    #expect(events == "703 STOP\n" || events == "701 BEGIN\n703 STOP\n")
    // Within the second speech-dispatcher waits before it kills a module; it used to wait for good.
    #expect(module.quit() == 0)
    #expect(rig.log.contains("still in an audio device or engine call after 500 ms"), "\(rig.log)")
}
