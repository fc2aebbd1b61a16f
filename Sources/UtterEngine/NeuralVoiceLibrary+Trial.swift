package import Configuration
package import Piper
package import Speech
package import Voices

extension NeuralVoiceLibrary {
    /// What trying a voice out showed (``trial(model:configPath:config:runtime:configuration:text:)``).
    package struct Trial: Sendable {
        /// How long the model took to load, in seconds.
        package var loadSeconds: Double
        /// How long the phrase lasts, in seconds.
        package var speechSeconds: Double
        /// Whether the model gives its phonemes' durations, which put words and marks where they are heard.
        package var hasDurations: Bool
        /// The phrase's phonemes that the voice's phoneme map lacks.
        package var missingPhonemes: [Unicode.Scalar]
    }

    /// The model's first speaker, loaded on the ONNX Runtime library at `runtime`, and `text` (its
    /// first sentence) synthesised: how `utter voice check` tries a voice out, through the engine
    /// that speaks it. Starts this process's espeak-ng engine: not while a pipeline runs.
    package static func trial(
        model: String, configPath: String, config: PiperVoiceConfig, runtime: String,
        configuration: UtterConfiguration, text: String
    ) -> Result<Trial, NeuralVoiceError> {
        let voice = NeuralVoice(
            model: model, config: configPath, speaker: config.speakerCount > 1 ? config.speakers.first?.id ?? 0 : nil,
            fallbackEngineName: config.espeakVoice, runtimeLibrary: runtime,
            threads: threads(configuration: configuration))
        return trial(voice, text: text)
    }

    /// `voice` loaded and `text` (its first sentence) synthesised, whatever its model family.
    package static func trial(_ voice: NeuralVoice, text: String) -> Result<Trial, NeuralVoiceError> {
        NeuralVoiceTrial.run(voice, text: text).map { outcome in
            Trial(
                loadSeconds: outcome.loadSeconds, speechSeconds: Double(outcome.samples) / Double(outcome.sampleRate),
                hasDurations: outcome.hasDurations, missingPhonemes: outcome.missingPhonemes)
        }
    }
}
