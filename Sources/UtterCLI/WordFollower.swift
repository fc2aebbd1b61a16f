/// What `utter say --follow` writes as words are heard. On a terminal the text appears word by
/// word, each with what precedes it; in a pipe each word is a line after its time in seconds since
/// the first sound.
struct WordFollower {
    let text: String
    let interactive: Bool
    private var written: String.Index
    private var startTime: UInt64?

    init(text: String, interactive: Bool) {
        self.text = text
        self.interactive = interactive
        written = text.startIndex
    }

    mutating func start(at time: UInt64) {
        if startTime == nil { startTime = time }
    }

    /// What to write when the word at `range` is heard at `time` (monotonic nanoseconds).
    mutating func heard(_ range: Range<String.Index>, at time: UInt64) -> String {
        guard range.lowerBound >= written else { return "" }  // a word heard twice, after a resume
        defer { written = range.upperBound }
        if interactive { return String(text[written..<range.upperBound]) }
        let elapsed = time - min(time, startTime ?? time)
        return Self.seconds(elapsed) + "\t" + text[range] + "\n"
    }

    /// What to write at the end: the rest of the text, on a terminal.
    mutating func finish() -> String {
        defer { written = text.endIndex }
        guard interactive else { return "" }
        return String(text[written...]) + "\n"
    }

    /// Nanoseconds as seconds with three decimals: 1234567890 → "1.235".
    static func seconds(_ nanoseconds: UInt64) -> String {
        let milliseconds = (nanoseconds + 500_000) / 1_000_000
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
