/// The sentences `utter read` reads, as ranges into the text: each is made into the line that is
/// shown and spoken only when it is reached, so a book starts as fast as a paragraph.
struct ReadingSentences: Sendable {
    let text: String
    let ranges: [Range<String.Index>]

    var count: Int { ranges.count }
    var isEmpty: Bool { ranges.isEmpty }

    /// Sentence `index` on one line: its line breaks and runs of white space as single spaces.
    subscript(index: Int) -> String {
        text[ranges[index]].split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
