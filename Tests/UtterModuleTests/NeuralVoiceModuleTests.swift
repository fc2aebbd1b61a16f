import Glibc
import OnnxRuntime
import System
import TestSupport
import Testing

/// The ONNX Runtime library the test process finds, for modules started with another HOME.
func onnxRuntimeEnvironment() throws -> [String] {
    let runtime = try installedOnnxRuntime()
    return ["UTTER_ONNXRUNTIME=\(runtime.libraryPath)"]
}

/// A rig whose voice folder holds the joe voice as `utter voice add` installs it; `settings` are
/// more utter.conf lines.
func joeRig(_ rig: borrowing CaptureRig, settings: String = "") throws -> String {
    let joe = try joeVoiceFiles()
    // Where `utter voice add` puts it, which `utter say` reads too.
    let voices = rig.folder + "/.local/share/utter/voices"
    for folder in [".local", ".local/share", ".local/share/utter", ".local/share/utter/voices"] {
        mkdir(rig.folder + "/" + folder, 0o755)
    }
    mkdir(voices + "/joe", 0o755)
    symlink(joe.model, voices + "/joe/en_US-joe-medium.onnx")
    symlink(joe.config, voices + "/joe/en_US-joe-medium.onnx.json")
    writeFile(rig.folder + "/utter.conf", "VoiceFolder \"\(voices)\"\nNeuralThreads 2\n" + settings)
    return rig.folder + "/utter.conf"
}

/// A Piper-shaped model of `megabytes` of weights (the neural tests' make_tiny_piper.py) with the
/// joe voice's JSON, installed as voice `name` in `voices`.
private func installTinyVoice(_ name: String, in voices: String, megabytes: Int) throws {
    let joe = try joeVoiceFiles()
    let script =
        "\(#filePath)".split(separator: "/").dropLast(2).joined(separator: "/") + "/NeuralTests/make_tiny_piper.py"
    mkdir(voices + "/" + name, 0o755)
    let model = "\(voices)/\(name)/\(name).onnx"
    let made = ChildProcess.run(["/usr/bin/python3", "-s", "/" + script, model, "--padding", "\(megabytes)"])
    guard made.status == 0 else {
        throw SpawnError(what: "make_tiny_piper.py (is python3-onnx installed?): \(made.standardError)", code: EIO)
    }
    symlink(joe.config, model + ".json")
}

/// Waits until `times` lines of the module's log hold `text`; false if they do not within `seconds`.
private func logShows(_ logPath: String, _ text: String, times: Int = 1, within seconds: Double = 60) -> Bool {
    eventually(within: seconds, every: 0.02) { occurrences(of: text, in: readText(logPath)) >= times }
}

private func occurrences(of text: String, in log: String) -> Int {
    log.split(separator: "\n").filter { $0.contains(text) }.count
}

@Suite(.serialized) struct NeuralVoiceModuleTests {
    private var utter: String { utterPath }

    @Test func `the joe voice is listed and speaks through the module with every mark in order`() throws {
        let rig = CaptureRig()
        let configuration = try joeRig(rig)
        let module = try startModule(rig, configurationPath: configuration, environment: try onnxRuntimeEnvironment())
        module.send("LIST VOICES en-US\n")
        let list = try #require(module.expect("200 OK VOICE LIST SENT\n"))
        #expect(list.contains("200-joe\ten-US\tnone\n"), "\(list)")
        // Chosen, the voice's model loads in the background; the messages after it are neural.
        module.send(settingsBlock(synthesisVoice: "joe"))
        _ = module.expect("203 OK SETTINGS RECEIVED\n")
        #expect(logShows(rig.logPath, "en_US-joe-medium.onnx loaded in "), "\(rig.log)")
        speak(module, fourSentences, settings: settingsBlock(synthesisVoice: "joe"))
        let events = try #require(module.expect("702 END\n", within: 60))
        #expect(
            events
                == "701 BEGIN\n700-__spd_0\n700 INDEX MARK\n700-__spd_1\n700 INDEX MARK\n700-__spd_2\n700 INDEX MARK\n702 END\n"
        )
        module.send("QUIT\n")
        _ = module.expect("210 OK QUIT\n")
        let samples = rig.samples()
        // Four sentences of speech: seconds of it, loud, and not silence between words.
        #expect(samples.count > 22050 * 5, "\(samples.count) samples")
        #expect(rootMeanSquare(samples) > 1000)
        #expect(!rig.log.contains("neural voice unavailable"), "\(rig.log)")
    }

    @Test func `a message while the model loads is spoken at once by espeak-ng, the next by the model`() throws {
        let rig = CaptureRig()
        let configuration = try joeRig(rig)
        // 600 MB of weights: seconds to load, beyond the second a message waits.
        try installTinyVoice("slow", in: rig.folder + "/.local/share/utter/voices", megabytes: 600)
        let module = try startModule(rig, configurationPath: configuration, environment: try onnxRuntimeEnvironment())
        speak(module, "<speak>Hello there.</speak>", settings: settingsBlock(synthesisVoice: "slow"))
        #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        let spoken = rig.log
        #expect(occurrences(of: "neural voice unavailable, the message is spoken by ", in: spoken) == 1, "\(spoken)")
        #expect(spoken.contains("slow/slow.onnx is still loading after "), "\(spoken)")
        // The message did not wait for the model: it was over before the model was there.
        #expect(!spoken.contains("slow.onnx loaded in "), "\(spoken)")
        #expect(logShows(rig.logPath, "slow/slow.onnx loaded in "), "\(rig.log)")
        speak(module, "<speak>Hello again.</speak>", settings: settingsBlock(synthesisVoice: "slow"))
        #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        module.send("QUIT\n")
        _ = module.expect("210 OK QUIT\n")
        let log = rig.log
        #expect(occurrences(of: "neural voice unavailable", in: log) == 1, "the second message is the model's: \(log)")
        // The model's sine, normalised to full scale as Piper's output is; espeak-ng's peaks are lower.
        let peak = rig.samples().map { abs(Int($0)) }.max() ?? 0
        #expect(peak >= 32000, "peak \(peak)")
    }

    @Test func `the joe voice's model loads when chosen, one at a time, and is released when unused`() throws {
        let rig = CaptureRig()
        let configuration = try joeRig(rig)
        writeFile(configuration, readText(configuration) + "NeuralIdleSeconds 3\n")
        try installTinyVoice("tiny", in: rig.folder + "/.local/share/utter/voices", megabytes: 0)
        let module = try startModule(rig, configurationPath: configuration, environment: try onnxRuntimeEnvironment())
        let before = residentKilobytes(module.pid)
        module.send(settingsBlock(synthesisVoice: "joe"))
        _ = module.expect("203 OK SETTINGS RECEIVED\n")
        #expect(logShows(rig.logPath, "en_US-joe-medium.onnx loaded in "), "loaded when chosen, before any message")
        let loaded = residentKilobytes(module.pid)
        speak(module, fourSentences, settings: settingsBlock(synthesisVoice: "joe"))
        let events = try #require(module.expect("702 END\n", within: 60))
        #expect(events.hasSuffix("700-__spd_2\n700 INDEX MARK\n702 END\n"), "\(events)")
        #expect(!rig.log.contains("neural voice unavailable"), "\(rig.log)")
        let spoken = residentKilobytes(module.pid)
        // Unused for NeuralIdleSeconds: released, and the memory with it.
        #expect(
            logShows(rig.logPath, "en_US-joe-medium.onnx released: unused for 3 s (NeuralIdleSeconds)"), "\(rig.log)")
        let released = residentKilobytes(module.pid)
        // Chosen again, then another voice chosen: NeuralVoicesLoaded 1 lets one stay.
        module.send(settingsBlock(synthesisVoice: "joe"))
        _ = module.expect("203 OK SETTINGS RECEIVED\n")
        #expect(logShows(rig.logPath, "en_US-joe-medium.onnx loaded in ", times: 2), "\(rig.log)")
        module.send(settingsBlock(synthesisVoice: "tiny"))
        _ = module.expect("203 OK SETTINGS RECEIVED\n")
        #expect(logShows(rig.logPath, "en_US-joe-medium.onnx released: NeuralVoicesLoaded 1 reached"), "\(rig.log)")
        #expect(logShows(rig.logPath, "tiny/tiny.onnx loaded in "), "\(rig.log)")
        let swapped = residentKilobytes(module.pid)
        module.send("QUIT\n")
        _ = module.expect("210 OK QUIT\n")
        report(
            "sd_utter RSS: \(before) KiB at start, \(loaded) with joe loaded, \(spoken) after speaking with it, \(released) after its idle release, \(swapped) with the tiny model in its place"
        )
        #expect(loaded - before > 60_000, "the joe model takes memory: \(before) → \(loaded) KiB")
        // Under AddressSanitizer freed memory waits in its quarantine: RSS cannot show it going.
        let quarantined = getenv("UTTER_SANITIZER").map { String(cString: $0) == "address" } ?? false
        #expect(spoken - released > 60_000 || quarantined, "released, its memory goes: \(spoken) → \(released) KiB")
        #expect(spoken - swapped > 60_000 || quarantined, "replaced, its memory goes: \(spoken) → \(swapped) KiB")
    }

    @Test func `utter say -o renders speech with the joe voice, not espeak-ng's`() throws {
        let rig = CaptureRig()
        _ = try joeRig(rig)
        let environment =
            ["HOME=\(rig.folder)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"]
            + (try onnxRuntimeEnvironment())
        let text = "The quick brown fox jumps over the lazy dog."
        let neural = ChildProcess.run(
            [utter, "say", "-v", "joe", "-o", rig.folder + "/joe.wav", text], environment: environment)
        #expect(neural.status == 0, "\(neural.standardError)")
        let espeak = ChildProcess.run(
            [utter, "say", "-v", "English (America)", "-o", rig.folder + "/espeak.wav", text], environment: environment)
        #expect(espeak.status == 0, "\(espeak.standardError)")
        let joe = try #require(SoundFileContents(path: rig.folder + "/joe.wav"))
        let reference = try #require(SoundFileContents(path: rig.folder + "/espeak.wav"))
        #expect(joe.sampleRate == 22050 && joe.duration > 1.5 && joe.duration < 5, "\(joe.duration) s")
        #expect(rootMeanSquare(joe.samples) > 1000)
        // Piper normalises each sentence to full scale; espeak-ng's peaks are far lower.
        let peak = joe.samples.map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 30000, "peak \(peak)")
        #expect(abs(joe.duration - reference.duration) > 0.1 || joe.samples.count != reference.samples.count)
        #expect(joe.samples != reference.samples)
    }

    @Test func `without ONNX Runtime the neural voice is not listed and the log says what to install`() throws {
        let rig = CaptureRig()
        let configuration = try joeRig(rig)
        let module = try startModule(
            rig, configurationPath: configuration,
            environment: ["UTTER_ONNXRUNTIME=/nonexistent/libonnxruntime.so.1"])
        module.send("LIST VOICES en-US\n")
        let list = try #require(module.expect("200 OK VOICE LIST SENT\n"))
        #expect(!list.contains("200-joe"))
        speak(module, "<speak>Still speaking.</speak>", settings: settingsBlock(synthesisVoice: "joe"))
        #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        let log = rig.log
        #expect(log.contains("1 neural voice(s) not listed (joe)"), "\(log)")
        #expect(log.contains("python3 -m pip install --user --break-system-packages --no-deps onnxruntime"))
    }

    @Test func `utter voice add installs the joe voice, check passes, remove takes it away`() throws {
        let rig = CaptureRig()
        let joe = try joeVoiceFiles()
        let environment = ["HOME=\(rig.folder)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"] + (try onnxRuntimeEnvironment())
        let add = ChildProcess.run([utter, "voice", "add", joe.model], environment: environment)
        #expect(add.status == 0, "\(add.standardError)")
        let installed = rig.folder + "/.local/share/utter/voices/joe"
        #expect(add.standardOutput.contains("# Model card for joe"), "the model card is shown")
        #expect(
            add.standardOutput.contains("joe (en-US, 22050 Hz, 1 speaker, phonemes by espeak-ng's en-us; loaded in "))
        #expect(add.standardOutput.contains("marks where heard (durations)) installed in \(installed)."))
        #expect(FileSystem.isRegularFile(installed + "/en_US-joe-medium.onnx.json"))
        #expect(FileSystem.isRegularFile(installed + "/MODEL_CARD"))
        let again = ChildProcess.run([utter, "voice", "add", joe.model], environment: environment)
        #expect(again.status == 1 && again.standardError.contains("\(installed) exists; give --force to replace it"))
        let check = ChildProcess.run([utter, "voice", "check", installed], environment: environment)
        #expect(check.status == 0 && check.standardOutput.hasSuffix("; no problems\n"), "\(check.standardOutput)")
        let voices = ChildProcess.run([utter, "voices", "-l", "en-US"], environment: environment)
        #expect(voices.standardOutput.contains("joe") && voices.standardOutput.contains("piper:joe\n"))
        let remove = ChildProcess.run([utter, "voice", "remove", "joe"], environment: environment)
        #expect(remove.status == 0 && !FileSystem.exists(installed))
    }

    @Test func `utter status names the neural voices and what makes them work`() throws {
        let rig = CaptureRig()
        _ = try joeRig(rig)
        let base = ["HOME=\(rig.folder)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"]
        let missing = ChildProcess.run(
            [utter, "status"], environment: base + ["UTTER_ONNXRUNTIME=/nonexistent/libonnxruntime.so.1"])
        #expect(
            missing.standardOutput.contains(
                "PROBLEM neural voices: joe installed, but not offered: ONNX Runtime not found ("),
            "\(missing.standardOutput)")
        #expect(
            missing.standardOutput.contains(
                "  fix: python3 -m pip install --user --break-system-packages --no-deps onnxruntime"))
        let found = ChildProcess.run([utter, "status"], environment: base + (try onnxRuntimeEnvironment()))
        #expect(found.standardOutput.contains("ok neural voices: joe on ONNX Runtime "), "\(found.standardOutput)")
    }

    @Test func `utter voice add and check name every problem of a bad voice`() throws {
        let rig = CaptureRig()
        let environment = ["HOME=\(rig.folder)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"] + (try onnxRuntimeEnvironment())
        mkdir(rig.folder + "/bad", 0o755)
        writeFile(rig.folder + "/bad/bad.onnx", "not a model")
        writeFile(rig.folder + "/bad/bad.onnx.json", "{\"audio\": {\"sample_rate\": 22050}}")
        let add = ChildProcess.run([utter, "voice", "add", rig.folder + "/bad/bad.onnx"], environment: environment)
        #expect(add.status == 1)
        #expect(
            add.standardError.contains("\(rig.folder)/bad/bad.onnx.json: espeak is missing"), "\(add.standardError)")
        #expect(add.standardError.contains("bad.onnx.json: phoneme_id_map is missing"))
        #expect(!FileSystem.exists(rig.folder + "/.local/share/utter/voices/bad"), "nothing half installed")
        writeFile(rig.folder + "/bad/bad.onnx.json", TinyJSON.minimal)
        let check = ChildProcess.run([utter, "voice", "check", rig.folder + "/bad"], environment: environment)
        #expect(check.status == 1)
        #expect(
            check.standardOutput.contains("\(rig.folder)/bad/bad.onnx: not an ONNX model ("), "\(check.standardOutput)")
    }
}

private enum TinyJSON {
    static let minimal = """
        {"audio": {"sample_rate": 22050}, "espeak": {"voice": "en-us"},
         "inference": {"noise_scale": 0.667, "length_scale": 1, "noise_w": 0.8},
         "phoneme_id_map": {"_": [0], "^": [1], "$": [2], " ": [3]}, "language": {"code": "en_US"}}
        """
}
