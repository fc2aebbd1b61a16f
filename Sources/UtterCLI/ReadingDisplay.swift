import Reading

/// What `utter read` writes: on a terminal the current sentence, redrawn in place as each word is
/// heard; in a pipe each sentence as a line when it starts.
struct ReadingDisplay {
    let sentences: ReadingSentences
    let interactive: Bool
    /// The sentences last made into lines: the one heard and the one queued after it. A word's
    /// range is into its sentence's line, so that line is made once, not for every word.
    private var lines: [(index: Int, text: String)] = []
    private var drawnLines = 0
    private var lastPrinted: Int?
    private var shown: (sentence: Int, word: Range<String.Index>?)?
    private var paused = false

    init(sentences: ReadingSentences, interactive: Bool) {
        self.sentences = sentences
        self.interactive = interactive
    }

    /// Sentence `index` as shown and spoken.
    mutating func text(of index: Int) -> String {
        if let line = lines.first(where: { $0.index == index }) { return line.text }
        let text = sentences[index]
        lines = Array(lines.suffix(2)) + [(index, text)]
        return text
    }

    /// What to write to show `sentence` with `word` being heard.
    mutating func show(_ sentence: Int, word: Range<String.Index>?, columns: Int, rows: Int) -> String {
        guard interactive else {
            guard word == nil, lastPrinted != sentence else { return "" }
            lastPrinted = sentence
            return text(of: sentence) + "\n"
        }
        shown = (sentence, word)
        // One column spare: a line that fills the last column would make some terminals wrap.
        let lines = ReadingScreen.lines(
            sentence: text(of: sentence), number: sentence + 1, of: sentences.count, word: word, paused: paused,
            columns: columns - 1, rows: rows)
        defer { drawnLines = lines.count }
        return erase() + lines.joined(separator: "\n")
    }

    /// What to write when reading pauses or resumes: the same sentence, marked paused or not.
    mutating func show(paused: Bool, columns: Int, rows: Int) -> String {
        self.paused = paused
        guard interactive, let shown else { return "" }
        return show(shown.sentence, word: shown.word, columns: columns, rows: rows)
    }

    /// What to write at the end: a line end after the last drawing, so the shell's prompt starts afresh.
    func finish() -> String {
        interactive && drawnLines > 0 ? "\n" : ""
    }

    /// Back to the first line drawn, and everything below cleared.
    private func erase() -> String {
        guard drawnLines > 0 else { return "" }
        return "\r" + (drawnLines > 1 ? "\u{1B}[\(drawnLines - 1)A" : "") + "\u{1B}[J"
    }
}
