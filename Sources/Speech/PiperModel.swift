import OnnxRuntime
import Piper
import RegularFiles
import SSML
import System
package import Voices

/// A Piper voice ready to synthesise: its JSON read, its model loaded with the durations output
/// added, its inputs checked.
final class PiperModel {
    let voice: NeuralVoice
    let config: PiperVoiceConfig
    let session: OnnxSession
    /// The output giving each id's frames; nil: word and mark positions are spread evenly.
    let durationsOutput: String?
    let hasSpeakerInput: Bool
    /// Phonemes already logged as missing from the map.
    var loggedMissing: Set<Unicode.Scalar> = []
    /// The voice's median F0, measured on the first sentence that asked for a pitch in hertz.
    var medianHertz: Double?

    static let inputs = ["input", "input_lengths", "scales"]

    init(voice: NeuralVoice, runtime: OnnxRuntime) throws(NeuralVoiceError) {
        self.voice = voice
        let configText: String
        switch readTextFile(voice.config) {
        case .success(let text): configText = text
        case .failure(let error): throw NeuralVoiceError("\(voice.config) cannot be read (\(error))")
        }
        switch PiperVoiceConfig.parse(configText) {
        case .success(let config): self.config = config
        case .failure(let error): throw NeuralVoiceError("\(voice.config): \(error)")
        }
        var bytes: [UInt8]
        switch readFile(voice.model, limit: 2 << 30, spare: ModelEdit.growth) {
        case .success(let read): bytes = read
        case .failure(let error): throw NeuralVoiceError("\(voice.model) cannot be read (\(error))")
        }
        let edit: ModelEdit.Found
        switch ModelEdit.exposeDurations(in: &bytes) {
        case .success(let result): edit = result
        case .failure(let problem): throw NeuralVoiceError("\(voice.model): \(problem)")
        }
        let missing = Self.inputs.filter { !edit.inputs.contains($0) }
        guard missing.isEmpty, edit.outputs.contains("output") else {
            throw NeuralVoiceError(
                "\(voice.model) is not a Piper model: its inputs are \(edit.inputs.joined(separator: ", ")) and outputs \(edit.outputs.joined(separator: ", ")) (Piper's: input, input_lengths, scales[, sid] → output)"
            )
        }
        do {
            session = try runtime.session(model: bytes, threads: voice.threads)
        } catch {
            throw NeuralVoiceError("\(voice.model): \(error)")
        }
        durationsOutput = edit.durationsOutput
        hasSpeakerInput = session.inputNames.contains("sid")
    }

    /// The samples (at the model's rate, −1…1) and each id's frames for `ids`.
    func infer(_ ids: [Int64], lengthScale: Float, control: OnnxRunControl) throws(OnnxRuntimeError) -> (
        samples: [Float], durations: [Float]?
    ) {
        var inputs = [
            OnnxTensor(name: "input", shape: [1, Int64(ids.count)], values: .int64(ids)),
            OnnxTensor(name: "input_lengths", shape: [1], values: .int64([Int64(ids.count)])),
            OnnxTensor(
                name: "scales", shape: [3], values: .float([config.noiseScale, lengthScale, config.noiseWidth])),
        ]
        if hasSpeakerInput {
            inputs.append(OnnxTensor(name: "sid", shape: [1], values: .int64([Int64(voice.speaker ?? 0)])))
        }
        let outputs = ["output"] + (durationsOutput.map { [$0] } ?? [])
        let results = try session.run(inputs, outputs: outputs, control: control)
        return (results[0], results.count > 1 ? results[1] : nil)
    }
}

/// Why a neural voice cannot speak.
package struct NeuralVoiceError: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}

/// The synth thread's hold on the ``NeuralModelStore``: the model its current job speaks with.
struct NeuralModels {
    let store: NeuralModelStore
    /// Whether the job asking is cancelled (a STOP ends the wait for a model).
    var isCancelled: () -> Bool = { false }
    private var held: NeuralVoice?

    init(store: NeuralModelStore) {
        self.store = store
    }

    /// `voice`'s model, waited for at most the store's `readyWait`.
    mutating func model(for voice: NeuralVoice) -> Result<(PiperModel, OnnxRunControl), NeuralVoiceError> {
        putDown()
        let result = store.take(voice, isCancelled: isCancelled)
        if case .success = result { held = voice }
        return result
    }

    /// Ends the job's use of its model: its idle time starts.
    mutating func putDown() {
        if let held { store.putDown(held) }
        held = nil
    }
}

/// The run under way, for a STOP from the control thread to end it.
final class NeuralRunSlot: Sendable {
    private let current = Locked<(job: UInt64, control: OnnxRunControl)?>(nil)

    func begin(job: UInt64, control: OnnxRunControl) {
        current.withLock { $0 = (job, control) }
    }

    func end() {
        current.withLock { $0 = nil }
    }

    /// Ends the running inference if its job is `job` or earlier.
    func cancel(through job: UInt64) {
        current.withLock { running in
            if let running, running.job <= job { running.control.terminate() }
        }
    }
}

/// A neural voice tried out, as `utter voice check` does: loaded, and one phrase synthesised.
package enum NeuralVoiceTrial {
    package struct Outcome: Sendable {
        package var loadSeconds: Double
        package var samples: Int
        package var sampleRate: Int
        package var hasDurations: Bool
        package var missingPhonemes: [Unicode.Scalar]
    }

    /// Loads `voice` and synthesises `text` (its first sentence); what went wrong, said for the user.
    /// Starts this process's espeak-ng engine: not while a ``Synthesizer`` runs.
    package static func run(_ voice: NeuralVoice, text: String) -> Result<Outcome, NeuralVoiceError> {
        do throws(NeuralVoiceError) {
            let engine: EspeakEngine
            do {
                engine = try EspeakEngine()
            } catch {
                throw NeuralVoiceError("\(error)")
            }
            let runtime: OnnxRuntime
            switch OnnxRuntime.load(path: voice.runtimeLibrary) {
            case .success(let loaded): runtime = loaded
            case .failure(let error): throw NeuralVoiceError("\(error)")
            }
            let started = MonotonicClock.now
            let model = try PiperModel(voice: voice, runtime: runtime)
            let loadSeconds = Double(MonotonicClock.now - started) / 1e9
            let clauses: [PhonemizedClause]
            do {
                clauses = try engine.phonemes(of: text, voice: model.config.espeakVoice)
            } catch {
                throw NeuralVoiceError("espeak-ng voice \(model.config.espeakVoice) (espeak.voice): \(error)")
            }
            let plain = NeuralText(segment: SpeechSegment(markup: text))
            guard let sentence = PiperSentence.sentences(text: plain, clauses: clauses).first else {
                throw NeuralVoiceError("espeak-ng gave no phonemes for \(text.debugDescription)")
            }
            let ids = PhonemeIDs(phonemes: sentence.phonemes, map: model.config.phonemeIDs)
            let control: OnnxRunControl
            let result: (samples: [Float], durations: [Float]?)
            do {
                control = try OnnxRunControl(runtime: runtime)
                result = try model.infer(ids.ids, lengthScale: model.config.lengthScale, control: control)
            } catch {
                throw NeuralVoiceError("\(voice.model): \(error)")
            }
            guard result.samples.contains(where: { abs($0) > 0.001 }) else {
                throw NeuralVoiceError("\(voice.model): the phrase came out silent")
            }
            return .success(
                Outcome(
                    loadSeconds: loadSeconds, samples: result.samples.count, sampleRate: model.config.sampleRate,
                    hasDurations: result.durations?.count == ids.ids.count, missingPhonemes: ids.missing))
        } catch {
            return .failure(error)
        }
    }
}
