import OnnxRuntime
import Piper
import RegularFiles
import Voices

/// A loaded neural model as ``NeuralSegments`` drives it: its front end (text to phonemes to
/// ids) and its inference (ids to samples and each id's frames). Piper and Kokoro models are
/// each one file of what is their own (``PiperModel``, ``KokoroModel``); the sentence loop,
/// marks, words, trimming, rate and pitch are shared.
///
/// Used by one synth thread at a time (the store hands a model to one job).
protocol NeuralModel: AnyObject {
    var voice: NeuralVoice { get }
    /// The rate of the samples `infer` returns.
    var sampleRate: Int { get }
    /// The speeds the model reaches itself; libsonic compresses beyond.
    var modelSpeeds: ClosedRange<Double> { get }
    /// The most phonemes one inference takes (the model's context); longer sentences are cut.
    var maximumPhonemes: Int { get }
    /// Phonemes already logged as missing from the vocabulary.
    var loggedMissing: Set<Unicode.Scalar> { get set }
    /// The voice's median F0, measured on the first sentence that asked for a pitch in hertz.
    var medianHertz: Double? { get set }
    /// Whether its Japanese is read from the kana of Utter's Japanese reader (the segmenter
    /// rewrites kanji as kana words for it, as for espeak-ng).
    var readsKana: Bool { get }
    /// Whether the model's start symbol is a pause of its own (Kokoro's: about 325 ms), left out
    /// of every sentence: the end of the sentence before it is the pause between them.
    var startSymbolIsPause: Bool { get }
    /// The longest silence a sentence ends with, in seconds at the voice's pace; nil: the model's own.
    var sentencePause: Double? { get }
    /// Whether a message's long first clause may be cut between words, to be heard sooner
    /// (`PiperSentence.sentences`' `cutsWords`).
    var cutsFirstClause: Bool { get }

    /// The clauses of `text` as phonemes, and whether they are libespeak-ng's (which read into
    /// the next word, see `PiperSentence.realigned`).
    func clauses(of text: NeuralText, espeak: EspeakEngine) throws -> (clauses: [PhonemizedClause], realigns: Bool)
    /// The ids the model reads for a sentence's phonemes.
    func ids(of phonemes: [Unicode.Scalar]) -> PhonemeIDs
    /// The samples (at ``sampleRate``, −1…1) and each id's frames, at `speed` (1: the voice's pace).
    func infer(_ ids: PhonemeIDs, speed: Double, control: OnnxRunControl) throws(OnnxRuntimeError) -> (
        samples: [Float], durations: [Float]?
    )
}

/// A model file loaded into an ONNX Runtime session, its durations node made an output.
struct LoadedGraph {
    let session: OnnxSession
    /// The output giving each id's frames; nil: word and mark positions are spread evenly.
    let durationsOutput: String?

    /// Reads `voice`'s model, makes `node`'s output a graph output, checks that the graph takes
    /// `inputs` and gives `output` (else: not a `family` model, `shape` saying what it should be).
    init(
        _ voice: NeuralVoice, durations node: ModelEdit.DurationsNode, inputs: [String], output: String,
        family: String, shape: String, runtime: OnnxRuntime
    ) throws(NeuralVoiceError) {
        var bytes: [UInt8]
        switch readFile(voice.model, limit: 2 << 30, spare: ModelEdit.growth) {
        case .success(let read): bytes = read
        case .failure(let error): throw NeuralVoiceError("\(voice.model) cannot be read (\(error))")
        }
        let size = bytes.count
        let edit: ModelEdit.Found
        switch ModelEdit.exposeDurations(in: &bytes, node: node) {
        case .success(let result): edit = result
        case .failure(let problem): throw NeuralVoiceError("\(voice.model): \(problem)")
        }
        // A model that needed no edit (`utter voice add` writes a Kokoro pack's edited) is read by
        // ONNX Runtime from its file, its bytes here let go first: the load's peak memory is the
        // runtime's alone, as when Python loads it.
        let edited = bytes.count != size
        if !edited { bytes = [] }
        guard inputs.allSatisfy(edit.inputs.contains), edit.outputs.contains(output) else {
            throw NeuralVoiceError(
                "\(voice.model) is not a \(family) model: its inputs are \(edit.inputs.joined(separator: ", ")) and outputs \(edit.outputs.joined(separator: ", ")) (\(family)'s: \(shape))"
            )
        }
        do {
            session =
                edited
                ? try runtime.session(model: bytes, threads: voice.threads)
                : try runtime.session(path: voice.model, threads: voice.threads)
        } catch {
            throw NeuralVoiceError("\(voice.model): \(error)")
        }
        durationsOutput = edit.durationsOutput
    }
}
