/// What ICU's sentence rules miss for one language, which matters when a text is read aloud a
/// sentence at a time: abbreviations, initials, ordinals, quotation marks, quoted speech in CJK.
struct SentenceRules: Sendable {
    /// Words ending in a full stop that do not end a sentence (`Mr.`, `z. B.`).
    let abbreviations: Set<String>
    /// Abbreviations that end no sentence when a number follows (`No. 5`, `S. 12`).
    let beforeNumbers: Set<String>
    /// Whether `3.` before a word is an ordinal (`am 3. Oktober`), as in German.
    let ordinalFullStop: Bool
    /// Marks that open a quotation or bracket, and those that close one.
    let opening: Set<Character>
    let closing: Set<Character>
    /// What may follow closing quotation marks within the same sentence (Japanese `」と言った`).
    let quotationContinuations: [String]
    /// Whether a short speaker's tag after a quotation belongs to it (Chinese `”他说。`).
    let speakerTags: Bool

    init(language: String, icuAbbreviations: [String]) {
        let table = AbbreviationTable.entries(for: language)
        abbreviations = Set(icuAbbreviations).subtracting(table.notAbbreviations).union(table.abbreviations)
        beforeNumbers = AbbreviationTable.beforeNumbers
        ordinalFullStop = AbbreviationTable.ordinalLanguages.contains(language)
        // German-style quotation marks („…“ and »…«) close with what opens elsewhere.
        if AbbreviationTable.lowHighQuotationLanguages.contains(language) {
            opening = ["„", "‚", "»", "›", "(", "[", "{"]
            closing = ["“", "‘", "«", "‹", ")", "]", "}"]
        } else {
            opening = ["“", "‘", "«", "‹", "„", "‚", "(", "[", "{", "「", "『", "（", "【", "〔", "《", "〈"]
            closing = ["”", "’", "»", "›", ")", "]", "}", "」", "』", "）", "】", "〕", "》", "〉"]
        }
        quotationContinuations = language == "ja" ? ["と", "って"] : []
        speakerTags = language == "zh" || language == "yue"
    }

    /// `pieces` (ICU's sentences of `text`, trimmed) with quotation marks on the right side and
    /// the pieces that are no sentence of their own joined to the one before.
    func repaired(_ pieces: [Range<String.Index>], in text: String) -> [Range<String.Index>] {
        var pieces = pieces
        for index in pieces.indices.dropLast()
        where !isParagraphBreak(text[pieces[index].upperBound..<pieces[index + 1].lowerBound]) {
            (pieces[index], pieces[index + 1]) = movingMarks(between: pieces[index], and: pieces[index + 1], in: text)
        }
        var sentences: [Range<String.Index>] = []
        for piece in pieces where !piece.isEmpty {
            if let last = sentences.last, !isParagraphBreak(text[last.upperBound..<piece.lowerBound]),
                continues(text[last], with: text[piece])
            {
                sentences[sentences.count - 1] = last.lowerBound..<piece.upperBound
            } else {
                sentences.append(piece)
            }
        }
        return sentences
    }

    /// A blank line between two pieces is a paragraph break, which always ends a sentence.
    func isParagraphBreak(_ gap: Substring) -> Bool {
        gap.unicodeScalars.count { $0 == "\n" } >= 2 || gap.unicodeScalars.contains("\u{2029}")
    }

    /// ICU counts opening marks after a full stop as the end of a sentence (`吗？“`), and a closing
    /// mark after a space as the start of the next (`« Non. » Il`): both go where they belong.
    private func movingMarks(
        between first: Range<String.Index>, and second: Range<String.Index>, in text: String
    ) -> (Range<String.Index>, Range<String.Index>) {
        var end = first.upperBound
        while end > first.lowerBound, opening.contains(text[text.index(before: end)]) { end = text.index(before: end) }
        if end < first.upperBound, end > first.lowerBound {
            return (first.lowerBound..<end, end..<second.upperBound)
        }
        var start = second.lowerBound
        while start < second.upperBound, closing.contains(text[start]) { start = text.index(after: start) }
        guard start > second.lowerBound else { return (first, second) }
        let firstEnd = start
        while start < second.upperBound, text[start].isWhitespace { start = text.index(after: start) }
        return (first.lowerBound..<firstEnd, start..<second.upperBound)
    }

    /// Whether `next` goes on the sentence `sentence` rather than starting one.
    private func continues(_ sentence: Substring, with next: Substring) -> Bool {
        if !next.contains(where: { $0.isLetter || $0.isNumber }) { return true }
        if let closingMark = sentence.last, closing.contains(closingMark) {
            if quotationContinuations.contains(where: next.hasPrefix) { return true }
            if speakerTags, isSpeakerTag(next) { return true }
        }
        guard sentence.last == "." else { return false }
        let (before, last) = Self.lastWords(of: sentence)
        let word = last.drop(while: opening.contains)
        if abbreviations.contains(String(word)) { return true }
        if !before.isEmpty, abbreviations.contains("\(before.drop(while: opening.contains)) \(word)") { return true }
        if word.count == 2, let initial = word.first, initial.isUppercase { return true }
        guard let following = next.first else { return false }
        if following.isNumber, beforeNumbers.contains(String(word)) { return true }
        let number = word.dropLast()
        guard ordinalFullStop, following.isLetter, (1...3).contains(number.count),
            number.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return false }
        // `Nr. 7. Es ist` ends a sentence: an ordinal comes after an article or a preposition
        // (`am 3.`, `der 2.`), or before a month. (`um 7. Dann` is taken for one too.)
        let nextWord = next.prefix { $0.isLetter }
        return (1...4).contains(before.count) && before.dropFirst().allSatisfy(\.isLowercase)
            && before.first?.isLetter == true
            || AbbreviationTable.months.contains(String(nextWord))
    }

    /// The last word of `sentence` and the one before it (empty when there is none).
    private static func lastWords(of sentence: Substring) -> (Substring, Substring) {
        func word(endingAt end: Substring.Index) -> Substring {
            var end = end
            while end > sentence.startIndex, sentence[sentence.index(before: end)].isWhitespace {
                end = sentence.index(before: end)
            }
            var start = end
            while start > sentence.startIndex, !sentence[sentence.index(before: start)].isWhitespace {
                start = sentence.index(before: start)
            }
            return sentence[start..<end]
        }
        let last = word(endingAt: sentence.endIndex)
        return (word(endingAt: last.startIndex), last)
    }

    /// A few characters ending in a verb of saying: `他说。`, `她问道：`.
    private func isSpeakerTag(_ next: Substring) -> Bool {
        guard let verb = next.prefix(6).firstIndex(where: { "说道问".contains($0) }) else { return false }
        return next[..<verb].allSatisfy(\.isLetter) && next.count <= 12
    }
}
