import ChineseReading

/// Reads the input as Chinese: the words must be in order, apart, inside the text and not empty,
/// and each spoken form must hold no markup characters (the segmenter escapes them, but pinyin
/// has none to escape).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // ICU keeps Han-Latin's compiled rules once opened, so a reader per input is cheap after the first.
    guard var reader = try? ChineseReading() else { fatalError("ICU's transliterators did not open") }
    let scalars = Array(text.unicodeScalars)
    var end = 0
    for word in reader.words(of: text, language: "zh") {
        precondition(word.source.lowerBound >= end, "\(word) overlaps or goes back in \(text.debugDescription)")
        precondition(!word.source.isEmpty && !word.spoken.isEmpty, "\(word) in \(text.debugDescription)")
        precondition(word.source.upperBound <= scalars.count, "\(word) past the end of \(text.debugDescription)")
        end = word.source.upperBound
        let written = word.source.map { scalars[$0] }
        if !written.contains(where: { "<>&".unicodeScalars.contains($0) }) {
            precondition(!word.spoken.contains(where: { "<>&".contains($0) }), "markup in \(word.spoken.debugDescription)")
        }
    }
    return 0
}
