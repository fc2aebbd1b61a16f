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
            problems.append("\(folder) holds no MODEL.onnx with its MODEL.onnx.json")
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
        switch readFile(model, limit: 2 << 30) {
        case .success(let bytes):
            switch ModelEdit.exposingDurations(bytes) {
            case .success(let edit):
                let missing = ["input", "input_lengths", "scales"].filter { !edit.inputs.contains($0) }
                if !missing.isEmpty || !edit.outputs.contains("output") {
                    problems.append(
                        "\(model): not a Piper model: inputs \(edit.inputs.joined(separator: ", ")), outputs \(edit.outputs.joined(separator: ", ")) (Piper's: input, input_lengths, scales[, sid] → output)"
                    )
                }
                if config.speakerCount > 1 && !edit.inputs.contains("sid") {
                    problems.append("\(model): num_speakers is \(config.speakerCount) but the model takes no sid")
                }
                if edit.durationsOutput == nil {
                    warnings.append(
                        "\(model) has no single Ceil node: words and marks are placed in proportion to the phonemes, not where they are heard"
                    )
                }
            case .failure(let problem):
                problems.append("\(model): \(problem)")
            }
        case .failure(let error):
            problems.append("\(model) cannot be read (\(error))")
        }
        guard problems.isEmpty else { return }
        let runtimePath: String
        switch NeuralVoiceLibrary.runtime(configuration: configuration) {
        case .success(let runtime): runtimePath = runtime.libraryPath
        case .failure(let error):
            problems.append("\(error); \(NeuralVoiceLibrary.installAdvice)")
            return
        }
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

extension String {
    /// `value` with two decimals.
    fileprivate init(format2 value: Double) {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        self = "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
