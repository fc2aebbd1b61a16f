/// The words of a text as its reader sees them, which word events are made of.
///
/// In a script written with spaces, a word is a run of characters between spaces, less the
/// punctuation around it: `It's`, `9:15`, `72°F`, `S.H.I.E.L.D`, `C++`, `50%`, an emoji with its
/// modifiers. The engine splits where its pronunciation splits (`It` `s`, `9` `15`, `S` alone),
/// so its words are merged into these. Scripts written without spaces (Chinese, Japanese, Thai,
/// Lao, Khmer, Myanmar, Tibetan) have no such words: their runs are cut where the reading front
/// end cuts them (MeCab's morphemes), which the engine's words follow.
///
/// Ranges are Unicode scalar offsets, as ``SSML/SpeechSegment/TextRun`` counts the text content.
public enum TextWords {
    /// One piece of a text: a word, or a run of a script written without spaces.
    public struct Unit: Equatable, Sendable {
        /// Its scalar offsets in the text.
        public var range: Range<Int>
        /// Whether it is a run of a script written without spaces, which the engine's words cut.
        public var isUnspaced: Bool

        public init(range: Range<Int>, isUnspaced: Bool) {
            self.range = range
            self.isUnspaced = isUnspaced
        }
    }

    /// The units of `text`, in order, none overlapping.
    public static func units(of text: String) -> [Unit] {
        var units: [Unit] = []
        var builder = Builder()
        var offset = 0
        for character in text {
            let count = character.unicodeScalars.count
            builder.add(character, at: offset, count: count, into: &units)
            offset += count
        }
        builder.close(into: &units)
        return units
    }

    /// The whitespace-separated tokens of `text`, punctuation kept, as the follow-along reveal
    /// splits it, in scalar offsets.
    public static func tokens(of text: String) -> [Range<Int>] {
        var tokens: [Range<Int>] = []
        var start: Int?
        var offset = 0
        for character in text {
            if character.isWhitespace {
                if let begun = start { tokens.append(begun..<offset) }
                start = nil
            } else if start == nil {
                start = offset
            }
            offset += character.unicodeScalars.count
        }
        if let begun = start { tokens.append(begun..<offset) }
        return tokens
    }

    /// Whether `character` separates words: whitespace, and the punctuation of scripts written
    /// without spaces (`、`, `。`, `「`), which separates their runs.
    static func isSeparator(_ character: Character) -> Bool {
        if character.isWhitespace { return true }
        guard let first = character.unicodeScalars.first else { return true }
        switch first.value {
        // CJK symbols and punctuation (not the iteration and repeat marks, the ideographic and
        // Hangzhou numbers, which are letters and digits), and full-width ASCII punctuation.
        case 0x3000...0x3004, 0x3008...0x3020, 0x3030, 0x303D...0x303F: return true
        case 0xFF01, 0xFF08, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F, 0xFF3B, 0xFF3D, 0xFF5B, 0xFF5D,
            0xFF5F...0xFF65:
            return true
        default: return false
        }
    }

    /// Whether `character` is a letter of a script written without spaces.
    static func isUnspaced(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first else { return false }
        switch Script.of(first) {
        case .han, .kana, .thai, .lao, .khmer, .myanmar, .tibetan: return true
        default: return false
        }
    }

    /// Punctuation that belongs to the word it ends or starts: `50%`, `#tag`, `@name`, `5′11″`.
    static let keptPunctuation: Set<Character> = ["%", "‰", "‱", "#", "@", "&", "*", "§", "¶", "†", "‡", "′", "″", "‴"]

    /// Whether `character` is left out at a word's ends: punctuation, and the backtick that quotes
    /// code (a modifier symbol to Unicode, punctuation to a reader).
    static func isTrimmed(_ character: Character) -> Bool {
        (character.isPunctuation && !keptPunctuation.contains(character)) || character == "`"
    }

    /// Collects the characters of one token (between separators) at a time.
    private struct Builder {
        /// Where its first kept character starts and its last kept one ends: punctuation around it
        /// is left out.
        var start = 0
        var end = 0
        var hasStarted = false
        /// Whether it holds a letter of a script written without spaces: then it is a run, cut
        /// where the engine's words cut it (a Latin name or a number inside it too: `IBMの`, `3人`).
        var isUnspaced = false

        mutating func add(_ character: Character, at offset: Int, count: Int, into units: inout [Unit]) {
            if TextWords.isSeparator(character) {
                close(into: &units)
                return
            }
            if TextWords.isUnspaced(character) { isUnspaced = true }
            guard !TextWords.isTrimmed(character) else { return }
            if !hasStarted {
                start = offset
                hasStarted = true
            }
            end = offset + count
        }

        mutating func close(into units: inout [Unit]) {
            if hasStarted { units.append(Unit(range: start..<end, isUnspaced: isUnspaced)) }
            hasStarted = false
            isUnspaced = false
        }
    }
}
