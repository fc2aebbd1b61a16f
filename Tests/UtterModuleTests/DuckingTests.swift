import Glibc
import TestSupport
import Testing

// Ducking by the desktop's own role policy: Utter's native streams say they are accessibility
// speech, a private sound server's policy lowers a music stream while Utter speaks.

/// A client playing a sound file on a private server with stream properties of its own (`paplay
/// --property=media.role=music`), ended by PID.
private final class Player {
    private var pid: pid_t = 0

    init(pulse: PrivateSoundServer, file: String, sink: String, properties: [String]) throws {
        // A small latency: the null sink then renders in step with the clock, not seconds ahead.
        let arguments =
            ["/usr/bin/paplay", "--device=\(sink)", "--latency-msec=100"] + properties.map { "--property=\($0)" }
            + [file]
        pid = try pulse.spawnClient(arguments)
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}

/// The median RMS of the 50 ms windows in the last half second recorded so far: a player's
/// underrun on a busy machine leaves a silent window, which does not move the median.
private func recentLevel(_ recording: MonitorRecording) -> Double {
    let recent = Array(recording.samplesSoFar().suffix(11025))
    let levels = stride(from: 0, to: recent.count - 1102, by: 1102).map {
        rootMeanSquare(recent[$0..<($0 + 1102)])
    }.sorted()
    return levels.isEmpty ? 0 : levels[levels.count / 2]
}

/// The properties block of the sink input whose `application.name` is `name`, from `pactl list
/// sink-inputs`.
private func sinkInput(named name: String, in listing: String) -> String? {
    listing.split(separator: "Sink Input #").map(String.init).first {
        $0.contains("application.name = \"\(name)\"")
    }
}

@Suite(.serialized, .timeLimit(.minutes(2)))
struct DuckingTests {
    /// PulseAudio keeps a ducked stream's volume as a volume factor, which `pactl list
    /// sink-inputs` does not print (its Volume stays 100%): what is heard is measured instead, on
    /// the music's own sink, so that Utter's speech does not count. `global=1` lets the speech on
    /// `utter_null` duck the music on `music_null`.
    @Test func `music ducks on PulseAudio's role policy while Utter speaks, and comes back after`() throws {
        let rig = CaptureRig()
        let pulse = try PrivateSoundServer(
            runtime: rig.folder + "/pulse", kind: .pulseAudio,
            modules: [
                "module-null-sink sink_name=music_null rate=22050 channels=1",
                "module-role-ducking trigger_roles=a11y ducking_roles=music volume=-20dB global=1",
            ])
        let music = rig.folder + "/music.wav"
        let tone = TestSupport.tone(frequency: 440, seconds: 40, amplitude: 8000)
        #expect(SoundFileContents.writeWAV(tone, sampleRate: 22050, to: music))
        let module = try startPacedModule(rig, pulse: pulse, configuration: "", path: .pulse)
        speak(module, "<speak>Utter is ready.</speak>")
        #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n")

        let recording = try MonitorRecording(
            pulse: pulse, path: rig.folder + "/music.raw", source: "music_null.monitor")
        let player = try Player(pulse: pulse, file: music, sink: "music_null", properties: ["media.role=music"])
        #expect(recording.waitUntilHeard(within: 5), "the music plays")
        usleep(600_000)
        let before = recentLevel(recording)

        speak(module, "<speak>" + String(repeating: "The music is lower while this is spoken. ", count: 4) + "</speak>")
        #expect(module.expect("701 BEGIN\n") == "701 BEGIN\n")
        usleep(1_000_000)
        let during = recentLevel(recording)
        let listing = pulse.pactl("list", "sink-inputs")
        #expect(module.expect("702 END\n", within: 30) == "702 END\n")
        usleep(800_000)
        let after = recentLevel(recording)
        withExtendedLifetime(player) {}
        #expect(module.quit() == 0)

        // −20 dB is a tenth of the amplitude; a 440 Hz tone of amplitude 8,000 has RMS 5,657.
        #expect(before > 5000, "the music before: RMS \(before)")
        #expect(during > 300 && during < before * 0.15, "the music while Utter speaks: RMS \(during), before \(before)")
        #expect(after > before * 0.9, "the music after: RMS \(after), before \(before)")
        let speech = try #require(sinkInput(named: "Utter", in: listing), "Utter's stream in: \(listing)")
        for property in [
            "media.role = \"a11y\"", "media.name = \"Speech\"", "application.id = \"org.utter.sd_utter\"",
            "application.icon_name = \"preferences-desktop-accessibility\"",
        ] {
            #expect(speech.contains(property), "\(property) in \(speech)")
        }
    }

    /// The same on PipeWire: what WirePlumber's policy (and a mixer) sees of Utter's native stream.
    @Test func `Utter's PipeWire stream is accessibility speech to pw-dump and to pactl`() throws {
        let rig = CaptureRig()
        let server = try PrivateSoundServer(runtime: rig.folder + "/pulse", kind: .pipeWire)
        let module = try startPacedModule(rig, pulse: server, configuration: "", path: .pipewire)
        speak(module, "<speak>" + String(repeating: "PipeWire knows what this stream is. ", count: 4) + "</speak>")
        #expect(module.expect("701 BEGIN\n") == "701 BEGIN\n")
        let dump = ChildProcess.run(["/usr/bin/pw-dump"], environment: server.environment, timeout: 10).standardOutput
        let listing = server.pactl("list", "sink-inputs")
        #expect(module.expect("702 END\n", within: 30) == "702 END\n")
        #expect(module.quit() == 0)

        // pw-dump prints a JSON array, one object per indented block; ours is the node named "utter".
        let node = try #require(
            dump.split(separator: "\n  {\n").first {
                $0.contains("\"node.name\": \"utter\"") && $0.contains("PipeWire:Interface:Node")
            }, "Utter's node in: \(dump.prefix(3000))")
        for property in [
            "\"media.role\": \"Accessibility\"", "\"media.category\": \"Playback\"", "\"media.name\": \"Speech\"",
            "\"application.name\": \"Utter\"", "\"application.id\": \"org.utter.sd_utter\"",
            "\"application.icon-name\": \"preferences-desktop-accessibility\"",
        ] {
            #expect(node.contains(property), "\(property) in \(node)")
        }
        let speech = try #require(sinkInput(named: "Utter", in: listing), "Utter's stream in: \(listing)")
        // pipewire-pulse names PipeWire's role as PulseAudio does, so PulseAudio clients' policies match it.
        #expect(speech.contains("media.role = \"a11y\"") && speech.contains("media.name = \"Speech\""), "\(speech)")
    }
}
