import Glibc

/// A tiny Kokoro-shaped voice pack built by Debian's python3-onnx in a temporary folder
/// (make_tiny_kokoro.py): each token lasts Clip(Round(((id mod 4) + 2) / speed), 1, 50) frames of
/// 600 samples at 24 kHz, its `/encoder/Clip` node giving them; the audio is a sine. Voices
/// jf_alpha, jm_kumo and af_heart.
public struct TinyKokoro {
    public let folder = TemporaryFolder()
    /// The voice folder, as `utter voice add` writes it.
    public var pack: String { folder.file("pack") }
    public var model: String { pack + "/kokoro.onnx" }
    public var vocabulary: String { pack + "/vocab.json" }
    public func styles(_ voice: String) -> String { pack + "/voices/\(voice).npy" }

    public static let sampleRate = 24_000
    public static let hop = 600

    /// `vocabulary`: the pack's vocab.json; `options`: make_tiny_kokoro.py's flags.
    public init(vocabulary: String, _ options: [String] = []) throws {
        try Self.script([pack] + options)
        writeFile(self.vocabulary, vocabulary)
    }

    /// A token's frames at `speed`, as the model rounds them (half to even, as ONNX's Round).
    public static func frames(_ id: Int64, speed: Double = 1) -> Int {
        let paced = Float(Float(id % 4 + 2) / Float(speed))
        return max(1, min(50, Int(paced.rounded(.toNearestOrEven))))
    }

    /// A pack as pip installs it into `site`: `NAME_/data/` and the model in `parts` packages.
    public static func pypi(site: String, name: String, parts: Int, vocabulary: String, corrupt: Bool = false) throws {
        let vocab = site + "/.vocab.json"
        mkdir(site, 0o755)
        writeFile(vocab, vocabulary)
        try script(["--pypi", site, name, "\(parts)", vocab] + (corrupt ? ["--corrupt"] : []))
    }

    private static func script(_ arguments: [String]) throws {
        let script = String(#filePath.dropLast("TinyKokoro.swift".count)) + "make_tiny_kokoro.py"
        let result = ChildProcess.run(["/usr/bin/python3", "-s", script] + arguments)
        guard result.status == 0 else {
            throw SpawnError(what: "make_tiny_kokoro.py (are python3-onnx and numpy installed?): \(result.standardError)", code: EIO)
        }
    }
}
