import Glibc
import TestSupport
import Testing

// Real-time tests (testing.md §2): sd_utter plays through the ALSA PulseAudio plugin into a private
// sound server's null sink (PulseAudio's, and PipeWire's through pipewire-pulse), which consumes
// audio at the real sample rate, and `parec` records the sink's monitor: what a listener would
// have heard.

/// How the module reaches the sound server in a test.
enum PlaybackPath: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// ALSA's PulseAudio plugin (`AudioBackend alsa`, the device speech-dispatcher names).
    case alsaPlugin
    /// libpulse's native API (`AudioBackend pulse`).
    case pulse
    /// libpipewire's native API (`AudioBackend pipewire`), on PipeWire only.
    case pipewire

    var testDescription: String { rawValue }
}

/// Every sound server with every path to it.
let serverPaths: [(SoundServerKind, PlaybackPath)] = SoundServerKind.allCases.flatMap { server in
    PlaybackPath.allCases.filter { $0 != .pipewire || server == .pipeWire }.map { (server, $0) }
}

/// Every sound server with each native API it serves.
let nativePaths: [(SoundServerKind, PlaybackPath)] = serverPaths.filter { $0.1 != .alsaPlugin }

/// A module playing through a private sound server's null sink, with `utter.conf` lines of its own.
func startPacedModule(
    _ rig: borrowing CaptureRig, pulse: PrivateSoundServer, configuration: String, path: PlaybackPath = .alsaPlugin
) throws -> ModuleProcess {
    writeFile(
        rig.folder + "/.asoundrc",
        "pcm.utter_paced { type pulse server \"unix:\(pulse.socket)\" device \"utter_null\" }\n")
    switch path {
    case .alsaPlugin:
        writeFile(rig.folder + "/utter.conf", "AudioBackend alsa\n" + configuration)
        return try startModule(rig, device: "utter_paced", configurationPath: rig.folder + "/utter.conf")
    case .pulse:
        writeFile(rig.folder + "/utter.conf", "AudioBackend pulse\n" + configuration)
        return try startModule(
            rig, device: "utter_paced", configurationPath: rig.folder + "/utter.conf",
            environment: ["PULSE_SERVER=unix:\(pulse.socket)", "PULSE_SINK=utter_null"])
    case .pipewire:
        writeFile(rig.folder + "/utter.conf", "AudioBackend pipewire\n" + configuration)
        return try startModule(
            rig, device: "utter_paced", configurationPath: rig.folder + "/utter.conf",
            environment: ["PIPEWIRE_RUNTIME_DIR=\(pulse.runtime)"])
    }
}

/// Indices of the first and last samples louder than `threshold`, if any.
private func audibleRange(_ samples: [Int16], threshold: Int32 = 300) -> ClosedRange<Int>? {
    guard let first = samples.firstIndex(where: { abs(Int32($0)) >= threshold }),
        let last = samples.lastIndex(where: { abs(Int32($0)) >= threshold })
    else { return nil }
    return first...last
}

/// The least of a stopped tone a recording must hold. The STOP comes 0.4 s after the recording
/// first showed the tone, but a recorder starved by the rest of the suite on two cores has shown
/// 0.3985 s of it (pipewire-pulse, native) and 0.3988 s (PulseAudio's ALSA plugin, under TSan):
/// the start of the stream, or a chunk, missing from the recording, not the tone stopped early.
private let leastHeardBeforeStop = 0.35

@Suite(.serialized, .timeLimit(.minutes(2)))
struct RealTimeDeviceTests {
    /// A tone (a sound icon) stopped in the middle; returns what was heard and the module's log.
    private func stopTone(
        bufferPeriods: Int, server: SoundServerKind, path: PlaybackPath
    ) throws -> (samples: [Int16], log: String) {
        let rig = CaptureRig()
        let pulse = try PrivateSoundServer(runtime: rig.folder + "/pulse", kind: server)
        mkdir(rig.folder + "/icons", 0o755)
        // 441 Hz at 22050 Hz: 50 samples a cycle, so neighbouring samples differ by at most ~2,000.
        writeTone(rig.folder + "/icons/tone.wav", frequency: 441, seconds: 3, amplitude: 16000)
        let module = try startPacedModule(
            rig, pulse: pulse,
            configuration:
                "SoundIconFolder \"\(rig.folder)/icons\"\nAudioPeriodMilliseconds 10\nAudioBufferPeriods \(bufferPeriods)\n",
            path: path)
        speak(module, "tone.wav", command: "SOUND_ICON")  // the first fill of a new stream
        #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n")
        let monitor = try MonitorRecording(pulse: pulse, path: rig.folder + "/heard.raw")
        speak(module, "tone.wav", command: "SOUND_ICON")
        #expect(module.expect("701 BEGIN\n") == "701 BEGIN\n")
        // A new PulseAudio stream may take a moment to start: stop once the tone is really playing.
        #expect(monitor.waitUntilHeard(within: 5), "the tone starts playing")
        usleep(400_000)
        module.send("STOP\n")
        #expect(module.expect("703 STOP\n") == "703 STOP\n")
        usleep(500_000)
        let samples = monitor.finish()
        #expect(module.quit() == 0)
        return (samples, rig.log)
    }

    // The PulseAudio plugin accepts snd_pcm_rewind but its server plays the frames anyway, so no
    // fade can be put in their place: the stop must cut at once (a fade after the queue would be
    // heard only after everything queued). No device on this machine both queues and rewinds, so
    // the fade itself (hardware, plughw, dmix) is not exercised here.
    @Test(arguments: SoundServerKind.allCases)
    func `STOP on the PulseAudio plugin, which cannot take frames back, cuts at once and says so`(
        server: SoundServerKind
    ) throws {
        // A 160 ms queue: with 40 ms a render thread starved by the suite on two cores (CI, plain
        // and TSan) let it run dry before the STOP, and there was nothing left to cut.
        let (samples, log) = try stopTone(bufferPeriods: 16, server: server, path: .alsaPlugin)
        let range = try #require(
            audibleRange(samples), "the tone was heard (\(samples.count) samples recorded); log: \(log.suffix(1500))")
        let heard = Double(range.count) / 22050
        #expect(
            heard > leastHeardBeforeStop && heard < 1.5, "the tone was stopped part-way: \(heard) s heard")
        // A render thread starved for the whole queue lets the device run dry before the STOP:
        // nothing is left to cut, and the module logs an underrun when the device says so.
        #expect(
            log.contains("stop cut the sound at once") || log.contains("audio underruns"),
            "the cut is logged: \(log.suffix(800))")
    }

    // On a native stream a STOP fades out over 4 ms from where playback is (libpulse: written over
    // the queued frames in place; PipeWire: in the next quantum). Judged by the measure: the
    // peak of the sound's last millisecond over the tone's, about 0.25 after a 4 ms fade and 0.95 or
    // more after a cut (a millisecond holds most of a half period of the 441 Hz tone, whatever the
    // phase). This suite runs beside the rest on two cores, where a sound server that reads on while
    // our write is on its way can take the first millisecond of the fade (CI once heard the tone step
    // from 0.9 to 0.6 of its level, then fade): the fade placed to the sample is what StopFadeTests
    // judge, alone, with the machine quiet.
    @Test(arguments: nativePaths)
    func `STOP on a native stream fades out within milliseconds`(server: SoundServerKind, path: PlaybackPath) throws {
        let (samples, log) = try stopTone(bufferPeriods: 8, server: server, path: path)
        let range = try #require(
            audibleRange(samples), "the tone was heard (\(samples.count) samples recorded); log: \(log.suffix(1500))")
        let heard = Double(range.count) / 22050
        #expect(heard > leastHeardBeforeStop && heard < 1.5, "the tone was stopped part-way: \(heard) s heard")
        // The sound's end: its last sample above -60 dBFS (after the STOP the stream plays zeros).
        let end = try #require(samples.lastIndex(where: { abs(Int32($0)) >= 30 }))
        let millisecond = 22050 / 1000
        let last = samples[max(0, end + 1 - millisecond)...end]
        let peak = last.map { abs(Int32($0)) }.max() ?? 0
        let gain = Double(peak) / 16000
        // Under a sanitizer the render thread runs several times slower and its view of the
        // server's clock lags: a fade was heard cut there once (CI, ASan, PipeWire at 48 kHz). The
        // plain suite judges the fade; a sanitizer's run judges the memory and threads of the same STOP.
        #expect(
            gain < 0.5 || getenv("UTTER_SANITIZER") != nil,
            "the last millisecond's peak is \(gain) of the tone's (a cut keeps it whole); the sound ends at sample \(end), heard from \(range.lowerBound); its last 2 ms: \(samples[max(0, end + 1 - 2 * millisecond)...end]); log: \(log.suffix(800))")
        #expect(!log.contains("stop cut the sound at once"), "no stop was cut: \(log.suffix(800))")
    }

    @Test(arguments: serverPaths)
    func `marks arrive in order while the audio plays, each after the sound before it`(
        server: SoundServerKind, path: PlaybackPath
    ) throws {
        let rig = CaptureRig()
        let pulse = try PrivateSoundServer(runtime: rig.folder + "/pulse", kind: server)
        let module = try startPacedModule(rig, pulse: pulse, configuration: "", path: path)
        speak(module, "<speak>Warm up.</speak>")
        #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n")
        let sentences = (1...4).map { "<mark name=\"__spd_\($0)\"/>This is sentence number \($0) of four." }
        speak(module, "<speak>" + sentences.joined(separator: " ") + "</speak>")
        var arrivals: [(String, Double)] = []
        let deadline = monotonicSeconds() + 30
        while monotonicSeconds() < deadline {
            guard let line = module.expect("\n", within: 30) else { break }
            arrivals.append((line, monotonicSeconds()))
            if line.hasPrefix("702") { break }
        }
        let expected = ["701 BEGIN\n"] + (1...4).flatMap { ["700-__spd_\($0)\n", "700 INDEX MARK\n"] } + ["702 END\n"]
        #expect(arrivals.map(\.0) == expected)
        // Each sentence takes about 1.5 s to say: a mark must come when its sentence starts playing,
        // not when it was synthesised (all within milliseconds of the SPEAK).
        let times = arrivals.enumerated().filter {
            $0.offset == 0 || $0.element.0.hasPrefix("700 ") || $0.element.0.hasPrefix("702")
        }
        .map(\.element.1)
        if arrivals.map(\.0) == expected {
            for index in 2...4 {
                #expect(
                    times[index] - times[index - 1] > 0.5,
                    "mark \(index) came \(times[index] - times[index - 1]) s after the one before")
            }
            #expect(times[5] - times[4] > 0.5, "END came when the last sentence ended")
        }
        #expect(module.quit() == 0)
    }

    @Test(arguments: serverPaths)
    func `PAUSE stops at the next mark, and nothing after the mark is heard`(
        server: SoundServerKind, path: PlaybackPath
    ) throws {
        let rig = CaptureRig()
        let pulse = try PrivateSoundServer(runtime: rig.folder + "/pulse", kind: server)
        let module = try startPacedModule(rig, pulse: pulse, configuration: "", path: path)
        speak(module, "<speak>Warm up.</speak>")
        #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n")
        let monitor = try MonitorRecording(pulse: pulse, path: rig.folder + "/heard.raw")
        speak(module, "<speak>One two three four five. <mark name=\"__spd_1\"/>Six seven eight nine ten.</speak>")
        #expect(module.expect("701 BEGIN\n") == "701 BEGIN\n")
        module.send("PAUSE\n")
        #expect(module.expect("704 PAUSE\n", within: 30) == "700-__spd_1\n700 INDEX MARK\n704 PAUSE\n")
        usleep(600_000)
        let paused = monitor.finish()
        let first = try #require(audibleRange(paused), "the first sentence was heard (\(paused.count) samples)")

        // The first sentence alone, for comparison.
        let whole = try MonitorRecording(pulse: pulse, path: rig.folder + "/first.raw")
        speak(module, "<speak>One two three four five.</speak>")
        #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n")
        usleep(300_000)
        let recorded = whole.finish()
        let reference = try #require(audibleRange(recorded), "the sentence was heard (\(recorded.count) samples)")
        let difference = abs(Double(first.count - reference.count)) / 22050
        #expect(difference < 0.1, "heard \(first.count) samples before the pause, the sentence has \(reference.count)")
        #expect(module.quit() == 0)
    }

    @Test(arguments: SoundServerKind.allCases)
    func `an idle module closes its stream, and the next message opens it again`(server: SoundServerKind) throws {
        let rig = CaptureRig()
        let pulse = try PrivateSoundServer(runtime: rig.folder + "/pulse", kind: server)
        let module = try startPacedModule(rig, pulse: pulse, configuration: "AudioIdleSeconds 1\n")
        func streams() -> Int {
            pulse.pactl("list", "short", "sink-inputs").split(separator: "\n").count
        }
        speak(module, "<speak>Hello.</speak>")
        #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n")
        #expect(streams() == 1, "the stream stays open right after a message")
        usleep(2_500_000)
        #expect(streams() == 0, "no stream after a second of idleness")
        let monitor = try MonitorRecording(pulse: pulse, path: rig.folder + "/heard.raw")
        speak(module, "<speak>Hello again.</speak>")
        #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n")
        usleep(300_000)
        #expect(audibleRange(monitor.finish()) != nil, "the next message is heard")
        #expect(module.quit() == 0)
        #expect(rig.log.contains("audio device closed until the next message"))
    }

    // In silence the native stream stays, corked: nothing plays into the server, and the next
    // message starts on the same stream, heard from its start.
    @Test(arguments: SoundServerKind.allCases)
    func `the native stream is corked in silence and heard again at the next message`(server: SoundServerKind) throws {
        let rig = CaptureRig()
        let pulse = try PrivateSoundServer(runtime: rig.folder + "/pulse", kind: server)
        let module = try startPacedModule(rig, pulse: pulse, configuration: "", path: .pulse)
        func inputs() -> [Substring] {
            pulse.pactl("list", "sink-inputs").split(separator: "\n").filter { $0.contains("Corked:") }
        }
        speak(module, "<speak>Hello.</speak>")
        #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n")
        usleep(1_500_000)
        let idle = inputs()
        #expect(idle.count == 1 && idle.first?.contains("yes") == true, "one stream, corked: \(idle)")
        let monitor = try MonitorRecording(pulse: pulse, path: rig.folder + "/heard.raw")
        speak(module, "<speak>Hello again.</speak>")
        #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n")
        usleep(300_000)
        #expect(audibleRange(monitor.finish()) != nil, "the next message is heard")
        #expect(inputs().count == 1, "the same stream")
        #expect(module.quit() == 0)
    }

    // speech-dispatcher's second AUDIO block names its output method: with `AudioBackend auto`
    // (no utter.conf) and a PulseAudio server in the environment, "alsa" sends the audio to the
    // ALSA device it names (here a capture file), "pulse" to the sound server.
    @Test(arguments: ["alsa", "pulse"])
    func `with AudioBackend auto, speech-dispatcher's output method decides where the audio goes`(
        method: String
    ) throws {
        let rig = CaptureRig()
        let pulse = try PrivateSoundServer(runtime: rig.folder + "/pulse", kind: .pulseAudio)
        let module = try startModule(
            rig, environment: ["PULSE_SERVER=unix:\(pulse.socket)", "PULSE_SINK=utter_null"], audioMethod: method)
        let monitor = try MonitorRecording(pulse: pulse, path: rig.folder + "/heard.raw")
        speak(module, "<speak>Hello there.</speak>")
        #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n")
        usleep(300_000)
        let heardOnServer = audibleRange(monitor.finish()) != nil
        #expect(module.quit() == 0)
        let captured = audibleRange(rig.samples()) != nil
        #expect(heardOnServer == (method == "pulse"), "heard on the sound server: \(heardOnServer); log: \(rig.log.suffix(800))")
        #expect(captured == (method == "alsa"), "captured through ALSA: \(captured)")
        #expect(
            rig.log.contains("audio backend: alsa, for the device speech-dispatcher names") == (method == "alsa"),
            "\(rig.log.suffix(800))")
    }

    // speech-dispatcher says "alsa" and its ALSA device is a PulseAudio plugin (as `default` is
    // on a desktop running PulseAudio): through the plugin a STOP would cut mid-waveform, so
    // `AudioBackend auto` plays to the same server and sink through libpulse, where it fades.
    @Test func `an ALSA device that is PulseAudio's plugin is played through libpulse, to the same sink`() throws {
        let rig = CaptureRig()
        let pulse = try PrivateSoundServer(runtime: rig.folder + "/pulse", kind: .pulseAudio)
        writeFile(
            rig.folder + "/.asoundrc",
            "pcm.utter_plugin { type plug slave.pcm \"utter_server\" }\n"
                + "pcm.utter_server { type pulse server \"unix:\(pulse.socket)\" device \"utter_null\" }\n")
        // No PULSE_SERVER in the environment: the server and sink are the plugin's.
        let module = try startModule(rig, device: "utter_plugin", audioMethod: "alsa")
        let monitor = try MonitorRecording(pulse: pulse, path: rig.folder + "/heard.raw")
        speak(module, "<speak>" + String(repeating: "Played to the sound server itself. ", count: 4) + "</speak>")
        #expect(module.expect("701 BEGIN\n", within: 30) == "701 BEGIN\n")
        let inputs = pulse.pactl("list", "sink-inputs")
        #expect(module.expect("702 END\n", within: 30) == "702 END\n")
        usleep(300_000)
        #expect(audibleRange(monitor.finish()) != nil, "heard on the sound server")
        #expect(module.quit() == 0)
        #expect(inputs.contains("application.name = \"Utter\""), "a libpulse stream of Utter's own: \(inputs)")
        #expect(!inputs.contains("ALSA plug-in"), "not the ALSA plugin's stream: \(inputs)")
        #expect(
            rig.log.contains(
                "audio backend: pulse, for ALSA's device 'utter_plugin', which is PulseAudio's plugin at unix:\(pulse.socket), sink utter_null"
            ), "\(rig.log.suffix(1200))")
    }
}
