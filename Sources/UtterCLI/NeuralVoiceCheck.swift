import Configuration
import OnnxRuntime
import Piper
import RegularFiles
import UtterEngine
import Voices

/// What `utter voice check` finds in a Piper voice's folder: the JSON's keys and types, the phoneme
/// map, the model's inputs and outputs, ONNX Runtime, and one phrase synthesised.
struct NeuralVoiceCheck {
    private(set) var problems: [String] = []
    private(set) var warnings: [String] = []
    /// One line saying what the voice is, when it has no problem.
    private(set) var summary: String?

    init(folder: String, configuration: UtterConfiguration) {
        guard let (model, configPath) = NeuralVoiceLibrary.model(in: folder) else {
            if let pack = NeuralVoiceLibrary.kokoroPack(in: folder) {
                checkKokoro(pack, folder: folder, configuration: configuration)
            } else {
                problems.append(
                    "\(folder) holds no MODEL.onnx with its MODEL.onnx.json (Piper), nor MODEL.onnx with vocab.json and voices/ (Kokoro)")
            }
            return
        }
        let config: PiperVoiceConfig
        switch readTextFile(configPath) {
        case .success(let text):
            switch PiperVoiceConfig.parse(text) {
            case .success(let read): config = read
            case .failure(let error):
                problems += error.problems.map { "\(configPath): \($0)" }
                return
            }
        case .failure(let error):
            problems.append("\(configPath) cannot be read (\(error))")
            return
        }
        if LanguageTag(config.language) == nil {
            problems.append("\(configPath): language.code \(config.language.debugDescription) is not a language tag")
        }
        let edit = checkGraph(
            model, node: .piper, inputs: ["input", "input_lengths", "scales"], output: "output", family: "Piper",
            shape: "input, input_lengths, scales[, sid] → output", noNode: "no single Ceil node")
        if let edit, config.speakerCount > 1 && !edit.inputs.contains("sid") {
            problems.append("\(model): num_speakers is \(config.speakerCount) but the model takes no sid")
        }
        guard problems.isEmpty else { return }
        guard let runtimePath = runtimePath(configuration) else { return }
        switch NeuralVoiceLibrary.trial(
            model: model, configPath: configPath, config: config, runtime: runtimePath, configuration: configuration,
            text: "Hello.")
        {
        case .success(let trial):
            for phoneme in trial.missingPhonemes {
                warnings.append("phoneme \(String(phoneme).debugDescription) of \"Hello.\" is not in the phoneme map")
            }
            let speakers = config.speakerCount > 1 ? "\(config.speakerCount) speakers" : "1 speaker"
            summary =
                "\(config.language), \(config.sampleRate) Hz, \(speakers), phonemes by espeak-ng's \(config.espeakVoice); loaded in \(String(format2: trial.loadSeconds)) s, \"Hello.\" is \(String(format2: trial.speechSeconds)) s of speech; marks \(trial.hasDurations ? "where heard (durations)" : "in proportion")"
        case .failure(let error):
            problems.append("\(error)")
        }
    }
}

extension NeuralVoiceCheck {
    /// A Kokoro pack's folder: its vocabulary, each voice's styles, the model's inputs and
    /// durations node, and the first voice tried on a phrase of its language.
    fileprivate mutating func checkKokoro(
        _ pack: (model: String, vocabulary: String, voices: [(name: String, styles: String)]), folder: String,
        configuration: UtterConfiguration
    ) {
        switch readTextFile(pack.vocabulary) {
        case .success(let text):
            if case .failure(let problem) = KokoroVocabulary.parse(text) { problems.append("\(pack.vocabulary): \(problem)") }
        case .failure(let error):
            problems.append("\(pack.vocabulary) cannot be read (\(error))")
        }
        if pack.voices.isEmpty { problems.append("\(folder)/voices holds no voice (NAME.npy)") }
        for voice in pack.voices {
            guard KokoroVoiceName(voice.name) != nil else {
                problems.append("\(voice.styles): not named as a Kokoro voice (its first letter the language: j, a, b, e, f, h, i, p, z)")
                continue
            }
            switch readFile(voice.styles, limit: 64 << 20) {
            case .success(let bytes):
                switch NumpyArray.read(bytes) {
                case .success(let array):
                    if array.shape.last != 256 || array.values.count < 256 {
                        problems.append("\(voice.styles): its shape is \(array.shape), not rows of 256 style values")
                    }
                case .failure(let problem): problems.append("\(voice.styles): \(problem)")
                }
            case .failure(let error): problems.append("\(voice.styles) cannot be read (\(error))")
            }
        }
        _ = checkGraph(
            pack.model, node: .kokoro, inputs: ["tokens", "style", "speed"], output: "audio", family: "Kokoro",
            shape: "tokens, style, speed → audio", noNode: "no node /encoder/Clip")
        guard problems.isEmpty, let first = pack.voices.first, let name = KokoroVoiceName(first.name) else { return }
        guard let runtimePath = runtimePath(configuration) else { return }
        // Japanese as the reader gives it to the voice: kana words.
        let phrase = name.readsKana ? "コンニチワ。" : "Hello."
        let voice = NeuralVoice(
            model: pack.model, config: pack.vocabulary, family: .kokoro(styles: first.styles), speaker: nil,
            fallbackEngineName: name.espeakVoice, runtimeLibrary: runtimePath,
            threads: NeuralVoiceLibrary.threads(configuration: configuration))
        switch NeuralVoiceLibrary.trial(voice, text: phrase) {
        case .success(let trial):
            for phoneme in trial.missingPhonemes {
                warnings.append("phoneme \(String(phoneme).debugDescription) of \(phrase) is not in the vocabulary")
            }
            let languages = Set(pack.voices.compactMap { KokoroVoiceName($0.name)?.language }).sorted()
            summary =
                "Kokoro, \(counted(pack.voices.count, "voice")) (\(languages.joined(separator: ", "))), 24000 Hz; loaded in \(String(format2: trial.loadSeconds)) s, \(phrase) is \(String(format2: trial.speechSeconds)) s of speech; marks \(trial.hasDurations ? "where heard (durations)" : "in proportion")"
        case .failure(let error):
            problems.append("\(error)")
        }
    }
}

extension NeuralVoiceCheck {
    /// The ONNX Runtime library `configuration` finds; nil (a problem said) when none.
    fileprivate mutating func runtimePath(_ configuration: UtterConfiguration) -> String? {
        switch NeuralVoiceLibrary.runtime(configuration: configuration) {
        case .success(let runtime): return runtime.libraryPath
        case .failure(let error):
            problems.append("\(error); \(NeuralVoiceLibrary.installAdvice)")
            return nil
        }
    }

    /// The model's graph: its inputs and output a `family` model's (`shape`), and its durations
    /// node (a warning when it has none: `noNode`). Nil when it cannot be read as a model.
    fileprivate mutating func checkGraph(
        _ model: String, node: ModelEdit.DurationsNode, inputs: [String], output: String, family: String,
        shape: String, noNode: String
    ) -> ModelEdit.Result? {
        let bytes: [UInt8]
        switch readFile(model, limit: 2 << 30) {
        case .success(let read): bytes = read
        case .failure(let error):
            problems.append("\(model) cannot be read (\(error))")
            return nil
        }
        switch ModelEdit.exposingDurations(bytes, node: node) {
        case .success(let edit):
            if !inputs.allSatisfy(edit.inputs.contains) || !edit.outputs.contains(output) {
                problems.append(
                    "\(model): not a \(family) model: inputs \(edit.inputs.joined(separator: ", ")), outputs \(edit.outputs.joined(separator: ", ")) (\(family)'s: \(shape))"
                )
            }
            if edit.durationsOutput == nil {
                warnings.append(
                    "\(model) has \(noNode): words and marks are placed in proportion to the phonemes, not where they are heard")
            }
            return edit
        case .failure(let problem):
            problems.append("\(model): \(problem)")
            return nil
        }
    }
}

extension String {
    /// `value` with two decimals.
    fileprivate init(format2 value: Double) {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        self = "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
