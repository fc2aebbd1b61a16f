import Glibc
import System
import TestSupport
import Testing

/// Neural voices through the utter command: rendered, added, checked, removed, and in its status.
@Suite(.serialized) struct NeuralVoiceCommandTests {
    private var utter: String { utterPath }

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
        // Installed, it is en-US's best voice: the one a message naming only en-US gets.
        #expect(
            voices.standardOutput.contains("joe") && voices.standardOutput.contains("piper:joe\t(default for en-US)\n"),
            "\(voices.standardOutput)")
        #expect(!voices.standardOutput.contains("espeak-ng:gmw/en-US\t(default"), "\(voices.standardOutput)")
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
