import Glibc

/// A tiny Piper-shaped voice built by Debian's python3-onnx in a temporary folder: each phoneme
/// id lasts ceil(id × 0.5 × length_scale + 0.1) frames of 256 samples; the output is a sine.
public struct TinyVoice {
    public let folder = TemporaryFolder()
    public var model: String { folder.file("tiny.onnx") }
    public var config: String { folder.file("tiny.onnx.json") }

    /// The ids every scalar of espeak-ng's English IPA gets: 4 to 11, by code point.
    public static func id(of scalar: Unicode.Scalar) -> Int64 {
        switch scalar {
        case "_": 0
        case "^": 1
        case "$": 2
        case " ": 3
        default: 4 + Int64(scalar.value % 8)
        }
    }

    public static func frames(_ id: Int64, lengthScale: Float = 1) -> Int {
        Int((Float(id) * 0.5 * lengthScale + 0.1).rounded(.up))
    }

    public static var phonemeMap: String {
        var scalars: [Unicode.Scalar] = Array(" !'(),-.:;?".unicodeScalars)
        scalars += (0x61...0x7A).compactMap(Unicode.Scalar.init)
        scalars += (0xC0...0x2FF).compactMap(Unicode.Scalar.init)
        var entries = ["\"_\": [0]", "\"^\": [1]", "\"$\": [2]"]
        for scalar in scalars {
            let key: String =
                switch scalar {
                case "\"": "\\\""
                case "\\": "\\\\"
                default: String(scalar)
                }
            entries.append("\"\(key)\": [\(id(of: scalar))]")
        }
        return "{" + entries.joined(separator: ", ") + "}"
    }

    public static var json: String {
        """
        {"audio": {"sample_rate": 22050}, "espeak": {"voice": "en-us"},
         "inference": {"noise_scale": 0.667, "length_scale": 1, "noise_w": 0.8},
         "phoneme_id_map": \(phonemeMap), "num_speakers": 1, "speaker_id_map": {},
         "language": {"code": "en_US"}}
        """
    }

    /// Builds the model (`options`: make_tiny_piper.py's flags) and writes its JSON.
    public init(_ options: [String] = [], json: String = TinyVoice.json) throws {
        try Self.makeModel(at: model, options)
        writeFile(config, json)
    }

    /// Builds a model at `path` with make_tiny_piper.py and `options` (`--padding MB`: that many
    /// megabytes of weights more, slow to load as a real voice is). Debian's python3 without the
    /// user's site-packages (`-s`), where a numpy from pip may not suit Debian's onnx.
    public static func makeModel(at path: String, _ options: [String]) throws {
        let script = String(#filePath.dropLast("TinyVoice.swift".count)) + "make_tiny_piper.py"
        let result = ChildProcess.run(["/usr/bin/python3", "-s", script, path] + options)
        guard result.status == 0 else {
            throw SpawnError(
                what: "make_tiny_piper.py (is python3-onnx installed?): \(result.standardError)", code: EIO)
        }
    }
}
