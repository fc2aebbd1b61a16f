import JapaneseKana
import JapaneseReading
import SSML

/// The reader, opened once: MeCab's dictionary takes a few milliseconds to map, and the fuzzer
/// runs on one thread.
private final class Shared: @unchecked Sendable {
    // libFuzzer calls the entry point from one thread only, so the reader is never used by two.
    let reader: JapaneseReader = {
        do { return try JapaneseReader() } catch { fatalError("\(error)") }
    }()
}

private let shared = Shared()

/// Reads the input as UTF-8 Japanese text: the words must be in order, not overlapping, within
/// the text and spoken by something; the pieces cut for MeCab (at a limit the first byte sets,
/// so short inputs are cut too) hold no control character and leave out nothing else.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let count = text.unicodeScalars.count
    let reader = shared.reader

    var end = 0
    for word in reader.words(of: text, language: "ja") {
        precondition(word.source.lowerBound >= end, "\(word) overlaps or goes back in \(text.debugDescription)")
        precondition(word.source.upperBound <= count && !word.source.isEmpty, "\(word) out of \(count)")
        precondition(!word.spoken.isEmpty, "\(word) speaks nothing")
        end = word.source.upperBound
    }

    let scalars = Array(text.unicodeScalars)
    var covered = 0
    var position = 0
    for piece in TextPieces.pieces(of: scalars, limit: 1 + (size > 0 ? Int(data[0]) : 0)) {
        precondition(piece.lowerBound >= position && !piece.isEmpty)
        precondition(scalars[position..<piece.lowerBound].allSatisfy { $0.properties.generalCategory == .control })
        precondition(!scalars[piece].contains { $0.properties.generalCategory == .control })
        covered += piece.count
        position = piece.upperBound
    }
    precondition(scalars[position...].allSatisfy { $0.properties.generalCategory == .control })
    precondition(covered == scalars.count(where: { $0.properties.generalCategory != .control }))
    return 0
}
