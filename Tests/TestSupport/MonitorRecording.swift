import Glibc

/// `parec` recording a private sound server's null-sink monitor into a file, ended by PID.
public final class MonitorRecording {
    public let path: String
    private var pid: pid_t = 0

    /// `latencyMilliseconds`: what parec asks of the server. 5 ms hands the samples over promptly,
    /// but the server then runs its sink (PulseAudio) or its graph (PipeWire: a 5 ms quantum) at that
    /// latency for everyone; one no lower than the recorded stream's own leaves the server as the
    /// stream alone would set it, as on a desktop where nothing but speech plays.
    public init(
        pulse: PrivateSoundServer, path: String, source: String = "utter_null.monitor", latencyMilliseconds: Int = 5
    ) throws {
        self.path = path
        let arguments = [
            "/usr/bin/parec", "-d", source, "--format=s16le", "--rate=22050", "--channels=1",
            "--latency-msec=\(latencyMilliseconds)",
        ]
        // To stdout: with a file argument parec keeps what it recorded in memory until it exits cleanly.
        pid = try pulse.spawnClient(arguments, output: path)
        // Recording before the first message. On PipeWire parec records once WirePlumber has
        // linked it to the monitor, which under CI's load took longer than a 300 ms sleep once (a
        // tone's first 37 ms went unrecorded): bytes in its file say it is linked and running. (Not
        // on PulseAudio: there parec records from its connection on, but an idle null sink renders
        // in blocks of up to 2 s and hands the first one over only when it is done.)
        let began = monotonicSeconds()
        if pulse.kind == .pipeWire {
            while (fileSize(path) ?? 0) < 882 && monotonicSeconds() < began + 10 {
                usleep(10_000)
            }
            if (fileSize(path) ?? 0) < 882 {
                print("MonitorRecording: parec recorded nothing from \(source) within 10 s")
            }
        }
        let settled = began + 0.3
        if monotonicSeconds() < settled { usleep(UInt32((settled - monotonicSeconds()) * 1_000_000)) }
    }

    /// Waits until something audible has been recorded; false if nothing was within `seconds`.
    public func waitUntilHeard(within seconds: Double) -> Bool {
        let deadline = monotonicSeconds() + seconds
        while monotonicSeconds() < deadline {
            let bytes = readFile(path) ?? []
            var index = 0
            while index + 1 < bytes.count {
                let sample = Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)
                if abs(Int32(sample)) >= 300 { return true }
                index += 2
            }
            usleep(20_000)
        }
        return false
    }

    /// The samples recorded so far; the recording goes on.
    public func samplesSoFar() -> [Int16] {
        littleEndianSamples(readFile(path) ?? [])
    }

    /// Ends the recording and returns the samples heard.
    public func finish() -> [Int16] {
        if pid > 0 {
            // parec writes what it reads at once; SIGKILL cannot be blocked or ignored.
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            pid = 0
        }
        return littleEndianSamples(readFile(path) ?? [])
    }

    deinit { _ = finish() }
}

private func fileSize(_ path: String) -> Int? {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : nil
}

/// `pw-record` recording a private PipeWire's null sink (its monitor) into a WAV file: a recorder
/// in a process of its own beside parec, which pipewire-pulse serves. A capture client that misses
/// a graph cycle loses that cycle's samples, with no silence in their place: of two recordings of
/// the same sink, sample for sample the same, one had 117 samples fewer from some point on (six
/// runs of StopFadeTests with both cores kept busy; twice, each time in one recording only). A
/// sound that two recorders heard alike is what the sink played.
public final class NativeMonitorRecording {
    public let path: String
    private var pid: pid_t = 0

    /// `latencyMilliseconds`: as parec's (``MonitorRecording``), what the recorder asks of the graph.
    public init(pulse: PrivateSoundServer, path: String, sink: String = "utter_null", latencyMilliseconds: Int) throws {
        self.path = path
        pid = try pulse.spawnClient([
            "/usr/bin/pw-record", "--target", sink, "-P", "stream.capture.sink=true", "--rate", "22050",
            "--channels", "1", "--format", "s16", "--latency", "\(latencyMilliseconds)ms", path,
        ])
        // Recording once WirePlumber has linked it: the file grows past its header.
        let deadline = monotonicSeconds() + 10
        while (fileSize(path) ?? 0) < 4096 && monotonicSeconds() < deadline {
            usleep(10_000)
        }
        if (fileSize(path) ?? 0) < 4096 { print("NativeMonitorRecording: pw-record recorded nothing within 10 s") }
    }

    /// Ends the recording (pw-record closes its file on SIGINT) and returns the samples heard,
    /// read with libsndfile.
    public func finish() -> [Int16] {
        if pid > 0 {
            kill(pid, SIGINT)
            let deadline = monotonicSeconds() + 5
            var status: Int32 = 0
            while waitpid(pid, &status, WNOHANG) == 0 {
                if monotonicSeconds() > deadline {
                    kill(pid, SIGKILL)
                    waitpid(pid, &status, 0)
                    break
                }
                usleep(10_000)
            }
            pid = 0
        }
        return SoundFileContents(path: path)?.samples ?? []
    }

    deinit { _ = finish() }
}
