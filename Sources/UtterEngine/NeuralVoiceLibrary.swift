package import Configuration
package import Logging
package import OnnxRuntime
package import Piper
import RegularFiles
import System
package import Voices

/// Finds the Piper voices installed in the voice folders: a folder holding `MODEL.onnx` and
/// `MODEL.onnx.json`. They are offered only when ONNX Runtime is found.
package enum NeuralVoiceLibrary {
    /// A voice folder's model and JSON, if it holds one.
    package static func model(in folder: String) -> (model: String, config: String)? {
        guard let names = try? FileSystem.entries(of: folder) else { return nil }
        for name in names.sorted() where name.hasSuffix(".onnx") && names.contains("\(name).json") {
            return ("\(folder)/\(name)", "\(folder)/\(name).json")
        }
        return nil
    }

    /// A Kokoro voice pack's model, vocabulary and voices (each a style file in `voices/`, by
    /// name), if `folder` holds one: `MODEL.onnx`, `vocab.json` and `voices/NAME.npy`.
    package static func kokoroPack(in folder: String) -> (model: String, vocabulary: String, voices: [(name: String, styles: String)])? {
        guard let names = try? FileSystem.entries(of: folder), names.contains("vocab.json") else { return nil }
        guard let model = names.sorted().first(where: { $0.hasSuffix(".onnx") && !names.contains("\($0).json") }) else {
            return nil
        }
        let styles = ((try? FileSystem.entries(of: "\(folder)/voices")) ?? []).filter {
            $0.hasSuffix(".npy") && !$0.hasPrefix(".")
        }
        let voices = styles.sorted().map { (String($0.dropLast(4)), "\(folder)/voices/\($0)") }
        return ("\(folder)/\(model)", "\(folder)/vocab.json", voices)
    }

    /// Whether `folder` holds a neural voice: a Piper voice or a Kokoro pack.
    static func holdsVoice(_ folder: String) -> Bool {
        model(in: folder) != nil || kokoroPack(in: folder) != nil
    }

    /// The folders in `folders` (or inside them) that hold a Piper voice, by voice name.
    package static func voiceFolders(in folders: [String]) -> [(name: String, folder: String)] {
        var found: [(String, String)] = []
        for folder in folders {
            if holdsVoice(folder) {
                found.append((String(folder.split(separator: "/").last ?? "voice"), folder))
                continue
            }
            let names = ((try? FileSystem.subdirectories(of: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
            for name in names where holdsVoice("\(folder)/\(name)") {
                found.append((name, "\(folder)/\(name)"))
            }
        }
        return found
    }

    /// ONNX Runtime as `configuration` and the environment say to find it.
    package static func runtime(configuration: UtterConfiguration) -> Result<OnnxRuntime, OnnxRuntimeError> {
        OnnxRuntime.load(
            candidates: OnnxRuntime.candidates(
                configured: configuration.onnxRuntimeLibrary, environment: Environment.value))
    }

    /// The threads a model runs on: utter.conf's `NeuralThreads`, else one per processor up to 4.
    package static func threads(configuration: UtterConfiguration) -> Int {
        configuration.neuralThreads ?? min(4, Processors.online)
    }

    /// What makes neural voices work on a machine without ONNX Runtime.
    package static let installAdvice =
        "install ONNX Runtime with 'python3 -m pip install --user --break-system-packages --no-deps onnxruntime', or name its library in utter.conf (OnnxRuntimeLibrary)"

    /// The neural voices in the voice folders; none (one log line saying why) without ONNX Runtime.
    /// Names and identifiers taken by `taken` voices are refused.
    package static func voices(configuration: UtterConfiguration, taken: [Voice], logger: Logger) -> [Voice] {
        let folders = voiceFolders(in: VoiceLibrary.folders(configuration: configuration))
        guard !folders.isEmpty else { return [] }
        let runtime: OnnxRuntime
        switch self.runtime(configuration: configuration) {
        case .success(let found): runtime = found
        case .failure(let error):
            logger.warning(
                "\(folders.count) neural voice(s) not listed (\(folders.map(\.name).joined(separator: ", "))): \(error); \(installAdvice)"
            )
            return []
        }
        let espeak = VoiceCatalogue(voices: taken.filter { if case .espeak = $0.kind { true } else { false } })
        var names = Set(taken.flatMap { [$0.name.lowercased(), $0.identifier.lowercased()] })
        var voices: [Voice] = []
        let threads = threads(configuration: configuration)
        func add(_ voice: Voice, from folder: String) {
            guard !names.contains(voice.name.lowercased()), !names.contains(voice.identifier.lowercased()) else {
                logger.warning(
                    "neural voice at \(folder) left out: its name \(voice.name.debugDescription) is taken by another voice")
                return
            }
            names.formUnion([voice.name.lowercased(), voice.identifier.lowercased()])
            voices.append(voice)
        }
        for (name, folder) in folders {
            if model(in: folder) == nil, let pack = kokoroPack(in: folder) {
                if pack.voices.isEmpty { logger.warning("Kokoro voice pack at \(folder) left out: it has no voices/NAME.npy") }
                for voice in kokoroVoices(
                    pack: name, pack, espeak: espeak, runtime: runtime.libraryPath, threads: threads, logger: logger)
                {
                    add(voice, from: folder)
                }
                continue
            }
            guard let (model, configPath) = model(in: folder) else { continue }
            let config: PiperVoiceConfig
            switch readTextFile(configPath) {
            case .success(let text):
                switch PiperVoiceConfig.parse(text) {
                case .success(let read): config = read
                case .failure(let problem):
                    logger.warning("neural voice at \(folder) left out: \(configPath): \(problem)")
                    continue
                }
            case .failure(let problem):
                logger.warning("neural voice at \(folder) left out: \(configPath) cannot be read (\(problem))")
                continue
            }
            for voice in self.voices(
                name: name, model: model, configPath: configPath, config: config, espeak: espeak,
                runtime: runtime.libraryPath, threads: threads)
            {
                add(voice, from: folder)
            }
        }
        if !voices.isEmpty {
            logger.info("\(voices.count) neural voice(s) on ONNX Runtime \(runtime.version) (\(runtime.libraryPath))")
        }
        return voices
    }

    /// The voices of a Kokoro pack: one per style file whose name says its language (`jf_alpha`).
    package static func kokoroVoices(
        pack: String, _ found: (model: String, vocabulary: String, voices: [(name: String, styles: String)]),
        espeak: VoiceCatalogue, runtime: String, threads: Int, logger: Logger
    ) -> [Voice] {
        found.voices.compactMap { voice in
            guard let name = KokoroVoiceName(voice.name), let tag = LanguageTag(name.language) else {
                logger.warning(
                    "Kokoro voice \(voice.styles) left out: its name does not start with a known language letter (j, a, b, e, f, h, i, p, z)")
                return nil
            }
            let fallback: String
            if let chosen = espeak.voice(forLanguage: tag.description), case .espeak(let engineName) = chosen.kind {
                fallback = engineName
            } else {
                fallback = name.espeakVoice
            }
            return Voice(
                name: voice.name, identifier: "kokoro:\(pack)/\(voice.name)",
                primaryLanguages: [Voice.Language(tag: tag, priority: 100)],
                kind: .neural(
                    NeuralVoice(
                        model: found.model, config: found.vocabulary, family: .kokoro(styles: voice.styles), speaker: nil,
                        fallbackEngineName: fallback, runtimeLibrary: runtime, threads: threads)))
        }
    }

    /// The voices of one model: one, or one per speaker of a multi-speaker model.
    package static func voices(
        name: String, model: String, configPath: String, config: PiperVoiceConfig, espeak: VoiceCatalogue,
        runtime: String, threads: Int
    ) -> [Voice] {
        let tag = LanguageTag(config.language) ?? LanguageTag(config.espeakVoice) ?? LanguageTag("und")!
        let fallback: String
        if let chosen = espeak.voice(forLanguage: tag.description), case .espeak(let engineName) = chosen.kind {
            fallback = engineName
        } else {
            fallback = config.espeakVoice
        }
        var speakers: [(name: String?, id: Int?)] = [(nil, nil)]
        if config.speakerCount > 1 {
            speakers =
                config.speakers.isEmpty
                ? (0..<config.speakerCount).map { ("\($0)", $0) } : config.speakers.map { ($0.name, $0.id) }
        }
        return speakers.map { speaker in
            Voice(
                name: speaker.name.map { "\(name) \($0)" } ?? name,
                identifier: "piper:\(name)" + (speaker.name.map { "/\($0)" } ?? ""),
                // After espeak-ng's voices of the language: a neural voice is chosen by name.
                primaryLanguages: [Voice.Language(tag: tag, priority: 100)],
                kind: .neural(
                    NeuralVoice(
                        model: model, config: configPath, speaker: speaker.id, fallbackEngineName: fallback,
                        runtimeLibrary: runtime, threads: threads)))
        }
    }
}
