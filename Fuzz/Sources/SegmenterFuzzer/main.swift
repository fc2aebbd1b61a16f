import FuzzSupport
import SSML

// Differential checks of reading SSML a piece at a time (issue 32), on arbitrary text:
// - the byte reader gives the tokens the scalar reader it replaced gave (ScalarReference);
// - text cut into pieces, joined again where it was cut, is the text read whole;
// - segments cut at sentence ends say what the segments of the whole text say: the same text,
//   the same marks in the same order, the same sounds, the same leading silence.
// The first two bytes choose how small the pieces are, so cuts land everywhere.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 2 else { return 0 }
    let minimum = Int(data[0] % 24) + 1
    let pieces = TextPieces(minimumBytes: minimum, maximumBytes: minimum + Int(data[1] % 40))
    let text = String(decoding: UnsafeBufferPointer(start: data + 2, count: size - 2), as: UTF8.self)

    let whole = SSMLReader.tokens(of: text)
    let reference = ScalarReference.tokens(of: text)
    precondition(whole == reference, "the byte reader read \(whole), the scalar reader \(reference)")

    var joined: [SSMLToken] = []
    var tokens = SSMLTokens(text, textPieces: pieces)
    var continues = false
    while let token = tokens.next() {
        if continues, case .text(let piece) = token, case .text(let before) = joined.last {
            joined[joined.count - 1] = .text(before + piece)
        } else {
            precondition(!continues, "a cut piece was followed by \(token)")
            joined.append(token)
        }
        continues = tokens.endedInText
        if tokens.endedInText, case .text = token {} else { precondition(!tokens.endedInText, "cut after \(token)") }
    }
    precondition(!continues, "the last piece was said to go on")
    precondition(joined == whole, "pieces joined \(joined), whole \(whole)")

    for options in [Segmenter(), Segmenter(capitals: .icon("capital"))] {
        var cut = options
        cut.textPieces = pieces
        var uncut = options
        uncut.textPieces = nil
        let a = said(cut.segments(of: text))
        let b = said(uncut.segments(of: text))
        precondition(a == b, "cut into pieces: \(a)\nwhole: \(b)")
    }
    return 0
}
