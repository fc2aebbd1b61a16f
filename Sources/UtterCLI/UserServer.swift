import SpeechDispatcherClient
import System

/// The user's own speech-dispatcher: the server that answers at the user's socket.
struct UserServer {
    /// The socket libspeechd connects to for this user.
    let socket: String?

    init() {
        socket = SpeechDispatcherConnection.defaultSocketPath
    }

    /// Its processes: speech-dispatcher programs of this user started for this socket (named on
    /// their command line, or the default one of the same runtime folder).
    func processes() -> [RunningProcess] {
        let runtime = Environment.value("XDG_RUNTIME_DIR")
        return RunningProcess.owned(by: CurrentProcess.userID).filter { process in
            guard let program = process.arguments.first, program.split(separator: "/").last == "speech-dispatcher"
            else { return false }
            if let socket, process.arguments.contains(socket) { return true }
            let namesSocket = process.arguments.contains { $0 == "--socket-path" || $0 == "-S" }
            return !namesSocket && runtime != nil && process.environmentValue("XDG_RUNTIME_DIR") == runtime
        }
    }

    /// Ends the running server (it looks for modules only when it starts) and starts a new one, as
    /// a client would; returns the modules the new one lists, or nil when none was running.
    /// (SIGHUP is no reload here: speech-dispatcher 0.11.4 ends on it, and the next client starts it.)
    func restart() throws(SpeechDispatcherError) -> [String]? {
        let running = processes()
        guard !running.isEmpty else { return nil }
        for process in running { _ = process.terminate() }
        if !waitForEnd(of: running, seconds: 3) {
            // Started with SIGTERM blocked (a client's thread can hand its mask on): it would never
            // end. Its modules see their input close and end too.
            for process in running where process.isRunning { _ = process.kill() }
            _ = waitForEnd(of: running, seconds: 1)
        }
        let connection = try SpeechDispatcherConnection(clientName: "utter", startingServer: true)
        return connection.outputModules() ?? []
    }

    private func waitForEnd(of processes: [RunningProcess], seconds: Int) -> Bool {
        for _ in 0..<(seconds * 100) {
            if !processes.contains(where: \.isRunning) { return true }
            MonotonicClock.sleep(nanoseconds: 10_000_000)
        }
        return !processes.contains(where: \.isRunning)
    }
}
