/// The phrases a clip voice is made from, as `utter voice create --phrases` reads them.
///
/// One phrase a line; blank lines and lines starting with `#` are skipped. A tab ends the phrase
/// and names its recording: `good morning<TAB>takes/morning-2.wav`. Each phrase gets a slug, its
/// clip's file name without extension (`good-morning`), unique in the list.
public struct PhraseList: Equatable, Sendable {
    /// One phrase and where it came from.
    public struct Entry: Equatable, Sendable {
        public var phrase: String
        /// The recording the line names after a tab, as written.
        public var recording: String?
        public var lineNumber: Int
        /// Lowercase letters and digits, other runs as `-`; unique in the list.
        public var slug: String
    }

    /// A line that cannot become a clip.
    public struct Problem: Equatable, Sendable, CustomStringConvertible {
        public var lineNumber: Int
        public var message: String

        public var description: String { "line \(lineNumber): \(message)" }
    }

    public private(set) var entries: [Entry] = []

    /// The phrases in `text`, and every line that cannot be one: no word to match, a control
    /// character, an empty recording name, the same phrase (to `PhraseBook`) as an earlier line.
    public static func parse(_ text: String) -> (list: PhraseList, problems: [Problem]) {
        var list = PhraseList()
        var problems: [Problem] = []
        var lineByKey: [String: Int] = [:]
        var slugs: Set<String> = []
        var lineNumber = 0
        // "\r\n" is one Character: split on line breaks of every kind, not on "\n".
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            let phrase = trimmed(fields[0])
            guard !phrase.isEmpty || fields.count > 1, !phrase.hasPrefix("#") else { continue }
            func problem(_ message: String) { problems.append(Problem(lineNumber: lineNumber, message: message)) }
            let recording = fields.count > 1 ? trimmed(fields[1]) : nil
            if line.unicodeScalars.contains(where: { $0 != "\t" && $0.properties.generalCategory == .control }) {
                problem("it holds a control character")
            } else if recording?.contains("\t") == true {
                problem("more than one tab; write the phrase, one tab, then its recording")
            } else if phrase.isEmpty {
                problem("a recording but no phrase before the tab")
            } else if recording?.isEmpty == true {
                problem("a tab but no recording after it")
            } else if let key = PhraseBook.matchKey(of: phrase) {
                if let earlier = lineByKey[key] {
                    problem("\(phrase.debugDescription) is the same phrase as line \(earlier)'s")
                } else {
                    lineByKey[key] = lineNumber
                    let slug = uniqueSlug(for: phrase, taken: &slugs)
                    list.entries.append(
                        Entry(phrase: phrase, recording: recording, lineNumber: lineNumber, slug: slug))
                }
            } else {
                problem("\(phrase.debugDescription) has no word to match")
            }
        }
        return (list, problems)
    }

    /// The slug of `phrase`, numbered (`-2`, `-3`…) when `taken` holds it already; then taken too.
    private static func uniqueSlug(for phrase: String, taken: inout Set<String>) -> String {
        var base = ""
        for character in phrase.lowercased() {
            if character.isLetter || character.isNumber {
                base.append(character)
            } else if !base.isEmpty && base.last != "-" {
                base.append("-")
            }
        }
        // A file name has at most 255 bytes; a long phrase keeps its start.
        while base.utf8.count > 80 { base.removeLast() }
        while base.last == "-" { base.removeLast() }
        if base.isEmpty { base = "phrase" }
        var slug = base
        var counter = 2
        while taken.contains(slug) {
            slug = "\(base)-\(counter)"
            counter += 1
        }
        taken.insert(slug)
        return slug
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
