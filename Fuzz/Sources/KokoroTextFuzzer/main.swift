import Piper
import SSML

/// Kokoro's text side on arbitrary input: the vocabulary reader (a refusal names its problem,
/// a vocabulary maps single symbols to ids 0…65535), the kana table and clause builder, and the
/// sentences made of those clauses within the model's context (each at most the maximum, every
/// word placed once, in order, on a phoneme of its sentence).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    switch KokoroVocabulary.parse(text) {
    case .failure(let problem):
        precondition(!problem.description.isEmpty)
    case .success(let vocabulary):
        precondition(!vocabulary.isEmpty && vocabulary.values.allSatisfy { (0..<65536).contains($0) })
    }
    _ = KanaPhonemes.phonemes(of: text)
    let neural = NeuralText(segment: SpeechSegment(markup: text))
    let clauses = KanaPhonemes.clauses(of: neural.scalars)
    var end = 0
    for clause in clauses {
        precondition(clause.text.lowerBound >= end && clause.text.upperBound <= neural.scalars.count)
        precondition(!clause.phonemes.isEmpty)
        end = clause.text.upperBound
    }
    let maximum = 8 + size % 64
    let sentences = PiperSentence.sentences(
        text: neural, clauses: clauses, firstClauseAlone: size % 2 == 0, realigns: false, maximumPhonemes: maximum,
        cutsWords: size % 3 == 0)
    var previous = -1
    for sentence in sentences {
        precondition(sentence.phonemes.count <= maximum)
        for word in sentence.words {
            precondition(word.phoneme >= 0 && word.phoneme < max(1, sentence.phonemes.count))
            precondition(word.text.lowerBound > previous)
            previous = word.text.lowerBound
        }
    }
    return 0
}
