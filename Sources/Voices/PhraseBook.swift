/// The phrases of a clip voice and the clip recorded for each; finds them in text.
///
/// Matching is on words compared case-insensitively and up to canonical equivalence (Swift
/// strings compare composed and decomposed forms as equal), longest phrase first, from left to
/// right. Words are runs of letters, digits and inner apostrophes; in scripts written without
/// spaces (Han, kana, Thai, Lao, Khmer, Myanmar) every character is a word of its own, so a
/// phrase there matches as a substring. Between the words of a phrase the text must hold what the
/// phrase holds, any run of white space counting as one space: "good morning" matches "Good
/// morning" but not "good, morning".
public struct PhraseBook: Equatable, Sendable {
    /// A phrase found in a text.
    public struct Match: Equatable, Sendable {
        /// Where it is in the text, first word to last.
        public var range: Range<String.Index>
        /// The clip recorded for it, as given to the book.
        public var clip: String
    }

    private struct Entry: Equatable, Sendable {
        var words: [String]
        /// What separates words `i` and `i + 1`, white space runs as one space.
        var gaps: [String]
        var clip: String
    }

    /// Entries by their first word, longest first.
    private var entries: [String: [Entry]] = [:]
    /// How many phrases the book holds.
    public private(set) var count = 0

    /// A book of `phrases`; a phrase with no word is left out, and of two phrases with the same
    /// words the first is kept.
    public init(_ phrases: [(phrase: String, clip: String)]) {
        for (phrase, clip) in phrases {
            guard let (keys, gaps) = Self.identity(of: phrase) else { continue }
            guard !(entries[keys[0]]?.contains { $0.words == keys && $0.gaps == gaps } ?? false) else { continue }
            entries[keys[0], default: []].append(Entry(words: keys, gaps: gaps, clip: clip))
            count += 1
        }
        for key in entries.keys {
            // Stable: among phrases of one length, the manifest's order.
            entries[key] = entries[key]!.enumerated().sorted {
                ($0.element.words.count, -$0.offset) > ($1.element.words.count, -$1.offset)
            }.map(\.element)
        }
    }

    /// What the book tells phrases apart by: two phrases with the same key are one phrase to it
    /// (the first is kept). Nil for a phrase with no word, which the book leaves out.
    public static func matchKey(of phrase: String) -> String? {
        guard let (words, gaps) = identity(of: phrase) else { return nil }
        // NUL between words and gaps: no phrase a manifest or phrase list accepts holds a control character.
        return zip(words, gaps + [""]).map { "\($0)\u{0}\($1)" }.joined(separator: "\u{0}")
    }

    /// The words of `phrase` (lowercased) and the gaps between them; nil without a word.
    private static func identity(of phrase: String) -> (words: [String], gaps: [String])? {
        let words = words(of: phrase)
        guard !words.isEmpty else { return nil }
        let gaps = zip(words, words.dropFirst()).map { gap(phrase[$0.range.upperBound..<$1.range.lowerBound]) }
        return (words.map(\.key), gaps)
    }

    /// The phrases in `text`, in order, none overlapping.
    public func matches(in text: String) -> [Match] {
        guard !entries.isEmpty else { return [] }
        let words = Self.words(of: text)
        var matches: [Match] = []
        var index = 0
        while index < words.count {
            let found = entries[words[index].key]?.first { entry in
                guard index + entry.words.count <= words.count else { return false }
                for offset in 1..<max(1, entry.words.count) {
                    let previous = words[index + offset - 1]
                    let word = words[index + offset]
                    guard word.key == entry.words[offset],
                        Self.gap(text[previous.range.upperBound..<word.range.lowerBound]) == entry.gaps[offset - 1]
                    else { return false }
                }
                return true
            }
            if let found {
                let last = words[index + found.words.count - 1]
                matches.append(Match(range: words[index].range.lowerBound..<last.range.upperBound, clip: found.clip))
                index += found.words.count
            } else {
                index += 1
            }
        }
        return matches
    }

    private struct Word {
        var key: String
        var range: Range<String.Index>
    }

    private static func words(of text: String) -> [Word] {
        var words: [Word] = []
        var start: String.Index?
        var index = text.startIndex
        func close(at end: String.Index) {
            guard let begin = start else { return }
            // An apostrophe belongs to a word only between letters ("o'clock", not "'tis" or "dogs'").
            var last = end
            while last > begin, isApostrophe(text[text.index(before: last)]) { last = text.index(before: last) }
            if last > begin { words.append(Word(key: text[begin..<last].lowercased(), range: begin..<last)) }
            start = nil
        }
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if isUnspacedScript(character) {
                close(at: index)
                words.append(Word(key: String(character).lowercased(), range: index..<next))
            } else if isWordCharacter(character) || (start != nil && isApostrophe(character)) {
                if start == nil { start = index }
            } else {
                close(at: index)
            }
            index = next
        }
        close(at: text.endIndex)
        return words
    }

    private static func gap(_ text: Substring) -> String {
        var result = ""
        var inSpace = false
        for character in text {
            if isSpace(character) {
                if !inSpace { result.append(" ") }
                inSpace = true
            } else {
                result.append(character)
                inSpace = false
            }
        }
        return result.lowercased()
    }

    // ASCII first: the Unicode property lookups behind isLetter and isWhitespace cost a table
    // search per character, the largest single cost of matching (perf, on the clip voice fuzzer).
    private static func isWordCharacter(_ character: Character) -> Bool {
        if let ascii = character.asciiValue {
            return (ascii | 0x20 >= 0x61 && ascii | 0x20 <= 0x7A) || (ascii >= 0x30 && ascii <= 0x39)
        }
        return character.isLetter || character.isNumber
    }

    private static func isSpace(_ character: Character) -> Bool {
        if let ascii = character.asciiValue { return ascii == 0x20 || (ascii >= 0x09 && ascii <= 0x0D) }
        return character.isWhitespace
    }

    private static func isApostrophe(_ character: Character) -> Bool {
        character == "'" || character == "\u{2019}"
    }

    /// Scripts written without spaces between words.
    private static func isUnspacedScript(_ character: Character) -> Bool {
        // Every script below starts at U+0E00 or later: three or more UTF-8 bytes, led by 0xE0 or more.
        guard let lead = character.utf8.first, lead >= 0xE0, let value = character.unicodeScalars.first?.value else {
            return false
        }
        switch value {
        case 0x0E00...0x0EFF,  // Thai, Lao
            0x1000...0x109F,  // Myanmar
            0x1780...0x17FF,  // Khmer
            0x3040...0x30FF, 0x31F0...0x31FF,  // Hiragana, Katakana
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F:  // Han
            return true
        default:
            return false
        }
    }
}
