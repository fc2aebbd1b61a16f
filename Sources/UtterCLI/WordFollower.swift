import ArgumentParser
import JSON
import SSML

/// What `utter say --follow` writes as words are heard. On a terminal the text appears word by
/// word, each with what precedes it; in a pipe, a line for each word heard, in the chosen format.
struct WordFollower {
    /// How heard words are written.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        /// The text revealed word by word, each with what precedes it (a terminal's default).
        case reveal
        /// A line for each word: its time in seconds since the first sound, a tab, the word as the
        /// text has it (a pipe's default).
        case words
        /// A line for each of the text's whitespace-separated tokens, punctuation kept, when its
        /// first word is heard: exactly the tokens a follow-along reveal splits the text into.
        case tokens
        /// One JSON object a line: the word, its range in UTF-16 code units and in UTF-8 bytes,
        /// and its time in seconds.
        case json
    }

    let text: String
    let format: Format
    private var written: String.Index
    private var startTime: UInt64?
    /// The text's tokens, for ``Format/tokens``, and the first not written yet.
    private let tokens: [Range<String.Index>]
    private var nextToken = 0

    init(text: String, format: Format) {
        self.text = text
        self.format = format
        written = text.startIndex
        if format == .tokens {
            let indices = Array(text.unicodeScalars.indices) + [text.endIndex]
            tokens = TextWords.tokens(of: text).map { indices[$0.lowerBound]..<indices[$0.upperBound] }
        } else {
            tokens = []
        }
    }

    /// A follower writing `format`, or the text revealed on a terminal and its words in a pipe.
    init(text: String, format: Format?, interactive: Bool) {
        self.init(text: text, format: format ?? (interactive ? .reveal : .words))
    }

    mutating func start(at time: UInt64) {
        if startTime == nil { startTime = time }
    }

    /// What to write when the word at `range` is heard at `time` (monotonic nanoseconds).
    mutating func heard(_ range: Range<String.Index>, at time: UInt64) -> String {
        guard range.lowerBound >= written else { return "" }  // a word heard twice, after a resume
        defer { written = range.upperBound }
        let seconds = Self.seconds(time - min(time, startTime ?? time))
        switch format {
        case .reveal:
            return String(text[written..<range.upperBound])
        case .words:
            return seconds + "\t" + text[range] + "\n"
        case .tokens:
            // Every token up to the one the word is in; those before it had no word of their own.
            guard let last = tokens[nextToken...].firstIndex(where: { $0.upperBound > range.lowerBound }) else { return "" }
            return tokenLines(through: last, seconds: seconds)
        case .json:
            let utf16 = text.utf16.distance(from: text.startIndex, to: range.lowerBound)
            let utf8 = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
            let word = text[range]
            let line: JSONValue = [
                "word": JSONValue(String(word)), "utf16": [JSONValue(utf16), JSONValue(utf16 + word.utf16.count)],
                "bytes": [JSONValue(utf8), JSONValue(utf8 + word.utf8.count)],
                // Written as `seconds` makes it, milliseconds shown: `0.250`, not `0.25`.
                "time": JSONValue(JSONNumber(literal: seconds)!),
            ]
            return JSONWriter.text(of: line) + "\n"
        }
    }

    /// What to write at the end, at `time`: the rest of the text on a terminal, the tokens with no
    /// word of their own that end it.
    mutating func finish(at time: UInt64) -> String {
        defer { written = text.endIndex }
        switch format {
        case .reveal: return String(text[written...]) + "\n"
        case .words, .json: return ""
        case .tokens:
            return tokenLines(through: tokens.count - 1, seconds: Self.seconds(time - min(time, startTime ?? time)))
        }
    }

    private mutating func tokenLines(through last: Int, seconds: String) -> String {
        guard last >= nextToken else { return "" }
        defer { nextToken = last + 1 }
        return tokens[nextToken...last].map { seconds + "\t" + text[$0] + "\n" }.joined()
    }

    /// Nanoseconds as seconds with three decimals: 1234567890 → "1.235".
    static func seconds(_ nanoseconds: UInt64) -> String {
        let milliseconds = (nanoseconds + 500_000) / 1_000_000
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
