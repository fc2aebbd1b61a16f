/// What `utter read` shows on a terminal: `sentence N of M` (and `(paused)`), then the sentence
/// wrapped to the terminal's width with the word being heard in reverse video.
public enum ReadingScreen {
    /// The lines to draw, without line ends, at most `rows`; `word` is a range of `sentence`. A
    /// sentence too long for the screen is shown a page at a time, the page with the word heard.
    public static func lines(
        sentence: String, number: Int, of count: Int, word: Range<String.Index>?, paused: Bool = false, columns: Int,
        rows: Int = .max
    ) -> [String] {
        let heading = "sentence \(number) of \(count)" + (paused ? " (paused)" : "")
        let lines = wrapped(sentence, columns: max(columns, 10))
        let page = max(rows - 1, 1)
        let heard = word.flatMap { word in lines.firstIndex { $0.overlaps(word) || $0.upperBound == word.lowerBound } }
        let first = (heard ?? 0) / page * page
        return [heading]
            + lines[first..<min(first + page, lines.count)].map { line in
                render(line, in: sentence, highlighting: word)
            }
    }

    /// `text` (on one line) as lines of at most `columns` cells: broken at spaces, next to wide
    /// (CJK) characters, and inside a word only when it is longer than a line.
    static func wrapped(_ text: String, columns: Int) -> [Range<String.Index>] {
        var lines: [Range<String.Index>] = []
        var start = text.startIndex
        var width = 0
        var breakPoint: String.Index?  // where the line may end
        var previousCells = 0
        for index in text.indices {
            let character = text[index]
            let cells = cellWidth(character)
            defer { previousCells = cells }
            if character.isWhitespace {
                breakPoint = index
                width += 1
                continue
            }
            if index > start, cells == 2 || previousCells == 2 { breakPoint = index }
            if width + cells > columns, index > start {
                let end = breakPoint ?? index
                lines.append(start..<end)
                start = end
                while start < index, text[start].isWhitespace { start = text.index(after: start) }
                width = text[start..<index].reduce(0) { $0 + cellWidth($1) }
                breakPoint = nil
            }
            width += cells
        }
        if start < text.endIndex { lines.append(start..<text.endIndex) }
        return lines.map { line in
            var end = line.upperBound
            while end > line.lowerBound, text[text.index(before: end)].isWhitespace { end = text.index(before: end) }
            return line.lowerBound..<end
        }
    }

    /// A line, with the part of `word` on it between the terminal's reverse-video escapes.
    private static func render(_ line: Range<String.Index>, in text: String, highlighting word: Range<String.Index>?)
        -> String
    {
        guard let word, word.overlaps(line) else { return printable(text[line]) }
        let lower = max(word.lowerBound, line.lowerBound)
        let upper = min(word.upperBound, line.upperBound)
        return printable(text[line.lowerBound..<lower]) + "\u{1B}[7m" + printable(text[lower..<upper]) + "\u{1B}[27m"
            + printable(text[upper..<line.upperBound])
    }

    /// `text` with control characters shown as U+FFFD: an escape sequence in a file must not
    /// drive the terminal.
    public static func printable(_ text: Substring) -> String {
        String(text.map { $0.unicodeScalars.first?.properties.generalCategory == .control ? "\u{FFFD}" : $0 })
    }

    /// Terminal cells a character takes: two for East Asian wide and full-width ones.
    static func cellWidth(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
