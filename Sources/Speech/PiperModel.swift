import OnnxRuntime
import Piper
import RegularFiles
import SSML
import System
package import Voices

/// A Piper voice ready to synthesise: its JSON read, its model loaded with the durations output
/// added, its inputs checked.
final class PiperModel: NeuralModel {
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

    var sampleRate: Int { config.sampleRate }

    /// The speeds the voice reaches by its length scale alone; libsonic takes over beyond.
    /// Piper's durations are whole frames, so a small length scale shortens short phonemes less:
    /// the joe voice at length scale 0.5 spoke 1.55 times its pace, not 2 (at MaximumRate 900,
    /// 929 words a minute with the scale up to 2, 1,045 up to 1.5, espeak-ng 1,077).
    var modelSpeeds: ClosedRange<Double> { 0.5...1.5 }

    /// Piper's models read sentences of any length.
    var maximumPhonemes: Int { .max }

    var readsKana: Bool { false }
    var cutsFirstClause: Bool { true }
    /// Piper's start symbol is the short breath a sentence starts with (joe: about 50 ms).
    var startSymbolIsPause: Bool { false }
    var sentencePause: Double? { nil }

    func clauses(of text: NeuralText, espeak: EspeakEngine) throws -> (clauses: [PhonemizedClause], realigns: Bool) {
        (try espeak.phonemes(of: text.string, voice: config.espeakVoice), true)
    }

    func ids(of phonemes: [Unicode.Scalar]) -> PhonemeIDs {
        PhonemeIDs(phonemes: phonemes, map: config.phonemeIDs)
    }

    func infer(_ ids: PhonemeIDs, speed: Double, control: OnnxRunControl) throws(OnnxRuntimeError) -> (
        samples: [Float], durations: [Float]?
    ) {
        try infer(ids.ids, lengthScale: max(0.2, min(5, config.lengthScale / Float(speed))), control: control)
    }

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
        let graph = try LoadedGraph(
            voice, durations: .piper, inputs: Self.inputs, output: "output", family: "Piper",
            shape: "input, input_lengths, scales[, sid] → output", runtime: runtime)
        session = graph.session
        durationsOutput = graph.durationsOutput
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
    mutating func model(for voice: NeuralVoice) -> Result<(any NeuralModel, OnnxRunControl), NeuralVoiceError> {
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
            let model: any NeuralModel =
                switch voice.family {
                case .piper: try PiperModel(voice: voice, runtime: runtime)
                case .kokoro: try KokoroModel(voice: voice, runtime: runtime)
                }
            let loadSeconds = Double(MonotonicClock.now - started) / 1e9
            let plain = NeuralText(segment: SpeechSegment(markup: text))
            let clauses: [PhonemizedClause]
            let realigns: Bool
            do {
                (clauses, realigns) = try model.clauses(of: plain, espeak: engine)
            } catch {
                throw NeuralVoiceError("\(voice.model): \(error)")
            }
            guard
                let sentence = PiperSentence.sentences(
                    text: plain, clauses: clauses, realigns: realigns, maximumPhonemes: model.maximumPhonemes
                ).first
            else {
                throw NeuralVoiceError("no phonemes for \(text.debugDescription)")
            }
            let ids = model.ids(of: sentence.phonemes)
            let control: OnnxRunControl
            let result: (samples: [Float], durations: [Float]?)
            do {
                control = try OnnxRunControl(runtime: runtime)
                result = try model.infer(ids, speed: 1, control: control)
            } catch {
                throw NeuralVoiceError("\(voice.model): \(error)")
            }
            guard result.samples.contains(where: { abs($0) > 0.001 }) else {
                throw NeuralVoiceError("\(voice.model): the phrase came out silent")
            }
            return .success(
                Outcome(
                    loadSeconds: loadSeconds, samples: result.samples.count, sampleRate: model.sampleRate,
                    hasDurations: result.durations?.count == ids.ids.count, missingPhonemes: ids.missing))
        } catch {
            return .failure(error)
        }
    }
}
