/// Splits text into sentences for one language, as it should be read aloud: ICU's sentence rules
/// and abbreviation lists, with what they miss corrected (see ``SentenceRules``).
///
/// A blank line always ends a sentence; a single line break does not.
public struct SentenceSplitter: Sendable {
    /// The language's primary subtag (`de` for `de-AT`).
    public let language: String
    private let locale: String
    private let rules: SentenceRules

    /// A splitter for `language`, a BCP 47 tag (`en-GB`).
    public init(language: String) {
        let tag = language.replacing("_", with: "-")
        self.language = String(tag.prefix { $0 != "-" }).lowercased()
        locale = tag.replacing("-", with: "_")
        rules = SentenceRules(language: self.language, icuAbbreviations: ICUBreaks.abbreviations(for: locale))
    }

    /// The sentences of `text`, in order, without the white space around them.
    public func sentences(in text: String) throws(SentenceError) -> [Range<String.Index>] {
        let ends = try ICUBreaks.sentenceEnds(in: Self.units(of: text), locale: locale)
        var pieces: [Range<String.Index>] = []
        var start = text.startIndex
        var offset = 0
        for end in ends {
            let stop = text.utf16.index(start, offsetBy: end - offset)
            let piece = Self.trimmed(start..<stop, in: text)
            if !piece.isEmpty { pieces.append(piece) }
            (start, offset) = (stop, end)
        }
        return rules.repaired(pieces, in: text)
    }

    /// `text` as UTF-16 for ICU, whose rules end a sentence at every line break: a line break is a
    /// space there unless it belongs to a blank line.
    static func units(of text: String) -> [UInt16] {
        var units = Array(text.utf16)
        var blankLine = [Bool](repeating: false, count: units.count)
        var lineBreak: Int?  // the last line break, while only spaces follow it
        for (index, unit) in units.enumerated() {
            if unit == 0x0A {
                if let lineBreak { (blankLine[lineBreak], blankLine[index]) = (true, true) }
                lineBreak = index
            } else if !Self.isSpace(unit) {
                lineBreak = nil
            }
        }
        for index in units.indices where Self.isLineBreak(units[index]) && !blankLine[index] {
            units[index] = 0x20
        }
        return units
    }

    /// Space within a line (a carriage return belongs to its line break).
    private static func isSpace(_ unit: UInt16) -> Bool {
        unit == 0x20 || unit == 0x09 || unit == 0x0B || unit == 0x0C || unit == 0x0D
    }

    /// What ICU takes for the end of a paragraph, but U+2029, which is one.
    private static func isLineBreak(_ unit: UInt16) -> Bool {
        unit == 0x0A || unit == 0x0D || unit == 0x85 || unit == 0x2028
    }

    private static func trimmed(_ range: Range<String.Index>, in text: String) -> Range<String.Index> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, text[lower].isWhitespace { lower = text.index(after: lower) }
        while upper > lower, text[text.index(before: upper)].isWhitespace { upper = text.index(before: upper) }
        return lower..<upper
    }
}
