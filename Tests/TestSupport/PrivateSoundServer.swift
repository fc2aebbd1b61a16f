public import Glibc

/// The sound servers desktops run, each with a null sink that consumes audio at the real rate.
public enum SoundServerKind: String, CaseIterable, Sendable {
    /// PulseAudio itself.
    case pulseAudio
    /// PipeWire with WirePlumber, and pipewire-pulse serving PulseAudio's protocol, as Debian 12's
    /// GNOME runs it.
    case pipeWire
}

/// A private, headless sound server (testing.md §2) with a real-time null sink `utter_null`,
/// reached through PulseAudio's protocol on ``socket`` whichever kind it is: its own folder, its
/// own D-Bus session (PipeWire), started and ended by PID.
public final class PrivateSoundServer {
    public let kind: SoundServerKind
    public let runtime: String
    /// More PulseAudio modules loaded at start (`module-role-ducking …`), PulseAudio only.
    public let modules: [String]
    /// Whether PulseAudio writes its debug log (`pulse.log` in ``runtime``), PulseAudio only.
    public let debugLog: Bool
    private var daemons: [pid_t] = []
    private var bus: pid_t = 0

    /// The PulseAudio-protocol socket: PulseAudio's own, or pipewire-pulse's.
    public var socket: String {
        switch kind {
        case .pulseAudio: runtime + "/native"
        case .pipeWire: runtime + "/pulse/native"
        }
    }

    public init(runtime: String, kind: SoundServerKind = .pulseAudio, modules: [String] = [], debugLog: Bool = false) throws {
        self.kind = kind
        self.runtime = runtime
        self.modules = modules
        self.debugLog = debugLog
        mkdir(runtime, 0o700)
        if kind == .pipeWire {
            mkdir(runtime + "/config", 0o700)
            mkdir(runtime + "/config/pipewire", 0o700)
            mkdir(runtime + "/config/pipewire/pipewire.conf.d", 0o700)
            // The null sink is part of PipeWire's own configuration: it exists from the start.
            writeFile(
                runtime + "/config/pipewire/pipewire.conf.d/utter-null.conf",
                """
                context.objects = [
                    { factory = adapter
                      args = {
                          factory.name = support.null-audio-sink
                          node.name = utter_null
                          node.description = "Utter test sink"
                          media.class = Audio/Sink
                          audio.position = [ MONO ]
                          object.linger = true
                          priority.session = 2000
                      }
                    }
                ]

                """)
            bus = try spawn(
                ["/usr/bin/dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=unix:path=\(runtime)/bus"],
                log: "dbus.log")
            try waitFor(runtime + "/bus", what: "dbus-daemon")
        }
        try start()
    }

    /// The environment of the server's processes, and of clients that use it directly (`pactl`).
    /// Starts a client of this server (`arguments[0]`: its path) with its standard output going
    /// to `output` (created or truncated); its pid.
    public func spawnClient(_ arguments: [String], output: String = "/dev/null") throws -> pid_t {
        try spawnChild(
            arguments, environment: environment + ["PULSE_SERVER=unix:\(socket)"], input: .inherited,
            output: .file(output), error: .inherited)
    }

    public var environment: [String] {
        var environment = ["HOME=\(runtime)", "XDG_RUNTIME_DIR=\(runtime)", "PATH=/usr/bin:/bin"]
        if kind == .pipeWire {
            environment += [
                "XDG_CONFIG_HOME=\(runtime)/config", "XDG_STATE_HOME=\(runtime)/state",
                "DBUS_SESSION_BUS_ADDRESS=unix:path=\(runtime)/bus", "PIPEWIRE_RUNTIME_DIR=\(runtime)",
            ]
        }
        return environment
    }

    /// Starts the server (again, after ``kill()``), ready once its sink can be played to.
    public func start() throws {
        switch kind {
        case .pulseAudio:
            daemons = [
                try spawn(
                    [
                        "/usr/bin/pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
                        "-L", "module-null-sink sink_name=utter_null rate=22050 channels=1",
                        "-L", "module-native-protocol-unix auth-anonymous=1 socket=\(socket)",
                    ] + modules.flatMap { ["-L", $0] } + (debugLog ? ["--log-level=debug"] : []), log: "pulse.log")
            ]
            try waitFor(socket, what: "pulseaudio")
        case .pipeWire:
            let pipewire = try spawn(["/usr/bin/pipewire"], log: "pipewire.log")
            try waitFor(runtime + "/pipewire-0", what: "pipewire")
            let wireplumber = try spawn(["/usr/bin/wireplumber"], log: "wireplumber.log")
            let pulse = try spawn(["/usr/bin/pipewire", "-c", "pipewire-pulse.conf"], log: "pipewire-pulse.log")
            // pipewire-pulse answers (and is what a hang or a crash is about) first in the list.
            daemons = [pulse, pipewire, wireplumber]
            try waitFor(socket, what: "pipewire-pulse")
            // Streams play once WirePlumber runs the session: it has made the null sink the default.
            let deadline = monotonicSeconds() + 10
            while !pactl("info").contains("Default Sink: utter_null") {
                guard monotonicSeconds() < deadline else {
                    throw SpawnError(what: "waiting for wireplumber", code: ETIMEDOUT)
                }
                usleep(20_000)
            }
        }
    }

    /// What `pactl ARGUMENTS` prints about this server.
    public func pactl(_ arguments: String...) -> String {
        ChildProcess.run(["/usr/bin/pactl", "--server=unix:\(socket)"] + arguments, environment: environment, timeout: 10)
            .standardOutput
    }

    /// Stops the server as a deadlocked one: its socket stays open but nothing answers.
    public func freeze() { for pid in daemons { Glibc.kill(pid, SIGSTOP) } }

    public func thaw() { for pid in daemons { Glibc.kill(pid, SIGCONT) } }

    /// Kills the server outright, as a crashing sound server would go.
    public func kill() {
        for pid in daemons {
            Glibc.kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        daemons = []
        unlink(socket)
        if kind == .pipeWire { unlink(runtime + "/pipewire-0") }
    }

    deinit {
        thaw()
        kill()
        if bus > 0 {
            Glibc.kill(bus, SIGKILL)
            var status: Int32 = 0
            waitpid(bus, &status, 0)
        }
    }

    private func spawn(_ arguments: [String], log: String) throws -> pid_t {
        try spawnChild(arguments, environment: environment, output: .file(runtime + "/" + log, appending: true))
    }

    /// Waits until `path` exists (a daemon's socket), at most 10 seconds.
    private func waitFor(_ path: String, what: String) throws {
        let deadline = monotonicSeconds() + 10
        while access(path, F_OK) != 0 {
            guard monotonicSeconds() < deadline else { throw SpawnError(what: "waiting for \(what)", code: ETIMEDOUT) }
            usleep(10_000)
        }
    }
}
