import Playback
import SSML

/// Cuts the input into a text and engine words over it, then checks what the aligner reports:
/// ranges in order, inside the text, each whole: every word between spaces reported once with
/// exactly its range, every run of a script written without spaces covered exactly once by its
/// pieces, positions never going back; and that the text's words hold every letter and digit of
/// the text, no whitespace, and start and end on characters.
///
/// Input: the text, a zero byte, then four bytes an engine word (start, start, length, step);
/// without a zero byte the text is its own engine words' source.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let split = bytes.firstIndex(of: 0) ?? size
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<split]), as: UTF8.self)
    let controls = split < size ? Array(bytes[(split + 1)...]) : Array(bytes)
    let scalarCount = text.unicodeScalars.count

    // The text's words: whole characters, no whitespace, every letter and digit inside one.
    let units = TextWords.units(of: text)
    for (unit, next) in zip(units, units.dropFirst()) {
        precondition(unit.range.upperBound <= next.range.lowerBound, "units overlap: \(units)")
    }
    var inWord = [Bool](repeating: false, count: scalarCount + 1)
    for unit in units {
        precondition(!unit.range.isEmpty && unit.range.upperBound <= scalarCount, "\(unit) outside the text")
        for offset in unit.range { inWord[offset] = true }
    }
    var offset = 0
    for character in text {
        let count = character.unicodeScalars.count
        // A word starts and ends between characters: all of a character's scalars are in it, or none.
        precondition((offset..<(offset + count)).allSatisfy { inWord[$0] == inWord[offset] },
            "a word cuts the character at \(offset) of \(text.debugDescription): \(units)")
        precondition(!character.isWhitespace || !inWord[offset], "whitespace at \(offset) inside a word: \(units)")
        precondition(!(character.isLetter || character.isNumber) || inWord[offset],
            "the letter or digit at \(offset) is in no word: \(units)")
        offset += count
    }

    // Engine words over the text, positions that never go back, marks and progress between them.
    var events: [SynthesisEvent] = [.audioStart(job: 1, position: 0)]
    var position: UInt64 = 0
    var index = 0
    while index + 4 <= controls.count {
        let start = (Int(controls[index]) << 8 | Int(controls[index + 1])) % (scalarCount + 2)
        let length = Int(controls[index + 2] % 24)
        position += UInt64(controls[index + 3] % 8) * 100
        switch controls[index + 3] >> 6 {
        case 0: events.append(.mark(job: 1, name: "m", position: position))
        case 1: events.append(.progress(job: 1, position: position))
        default: break
        }
        events.append(.word(job: 1, text: start..<(start + length), position: position))
        index += 4
    }
    events.append(.end(job: 1, position: position + 100))

    // Fed in batches, as the synth thread reports them.
    var aligner = WordAligner(units: units)
    var reported: [(range: Range<Int>, position: UInt64)] = []
    var others = 0
    var batch = 0
    while batch < events.count {
        let count = 1 + (batch < controls.count ? Int(controls[batch] % 5) : 0)
        let slice = Array(events[batch..<min(events.count, batch + count)])
        batch += count
        for event in aligner.align(slice) {
            if case .word(_, let range, let at) = event { reported.append((range, at)) } else { others += 1 }
        }
    }
    precondition(others == events.count { if case .word = $0 { false } else { true } }, "events other than words lost")
    precondition(aligner.isFinished, "words left at the end")
    for (word, next) in zip(reported, reported.dropFirst()) {
        precondition(word.range.upperBound <= next.range.lowerBound, "words out of order: \(reported.map(\.range))")
        precondition(word.position <= next.position, "positions go back: \(reported.map(\.position))")
    }
    var pieces = reported[...]
    for unit in units {
        var covered = unit.range.lowerBound
        while let piece = pieces.first, piece.range.lowerBound < unit.range.upperBound {
            precondition(piece.range.lowerBound == covered, "\(piece.range) does not go on from \(covered) in \(unit)")
            precondition(piece.range.upperBound <= unit.range.upperBound, "\(piece.range) runs past \(unit)")
            precondition(unit.isUnspaced || piece.range == unit.range, "\(piece.range) is not the word \(unit.range)")
            covered = piece.range.upperBound
            pieces.removeFirst()
        }
        precondition(covered == unit.range.upperBound, "\(unit) reported up to \(covered) only")
    }
    precondition(pieces.isEmpty, "words outside the text's words: \(pieces.map(\.range))")
    return 0
}
