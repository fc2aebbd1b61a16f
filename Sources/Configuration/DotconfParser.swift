/// One `Key value…` line of a dotconf file, quotes removed.
public struct DotconfEntry: Equatable, Sendable {
    public var key: String
    public var arguments: [String]
    public var lineNumber: Int

    public init(key: String, arguments: [String], lineNumber: Int) {
        self.key = key
        self.arguments = arguments
        self.lineNumber = lineNumber
    }
}

/// A problem found in a configuration file, located so an administrator can fix it.
public struct ConfigurationIssue: Equatable, Sendable, CustomStringConvertible {
    public var lineNumber: Int
    public var message: String

    public init(lineNumber: Int, message: String) {
        self.lineNumber = lineNumber
        self.message = message
    }

    public var description: String { "line \(lineNumber): \(message)" }
}

/// Reads speech-dispatcher's configuration syntax (dotconf): `Key value…` per line, `#` comments,
/// double-quoted strings with `\"` and `\\` escapes, keys compared case-insensitively by callers.
public enum DotconfParser {
    /// The entries of `text` and the lines that could not be read (skipped).
    public static func parse(_ text: String) -> (entries: [DotconfEntry], issues: [ConfigurationIssue]) {
        var entries: [DotconfEntry] = []
        var issues: [ConfigurationIssue] = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            switch words(of: rawLine) {
            case .success(let words):
                guard let key = words.first else { continue }
                guard key.first?.isLetter == true else {
                    issues.append(
                        ConfigurationIssue(
                            lineNumber: lineNumber, message: "\(key.debugDescription) is not a setting name"))
                    continue
                }
                entries.append(DotconfEntry(key: key, arguments: Array(words.dropFirst()), lineNumber: lineNumber))
            case .failure(let message):
                issues.append(ConfigurationIssue(lineNumber: lineNumber, message: message))
            }
        }
        return (entries, issues)
    }

    private enum Words {
        case success([String])
        case failure(String)
    }

    private static func words(of line: Substring) -> Words {
        var words: [String] = []
        var iterator = line.makeIterator()
        var current = ""
        var inWord = false
        while let character = iterator.next() {
            switch character {
            case "#":
                if inWord { words.append(current) }
                return .success(words)
            case " ", "\t", "\r":
                if inWord {
                    words.append(current)
                    current = ""
                    inWord = false
                }
            case "\"":
                if inWord {
                    return .failure("a quote in the middle of \(current.debugDescription)")
                }
                var quoted = ""
                var closed = false
                while let next = iterator.next() {
                    if next == "\\" {
                        guard let escaped = iterator.next() else { break }
                        quoted.append(escaped)
                    } else if next == "\"" {
                        closed = true
                        break
                    } else {
                        quoted.append(next)
                    }
                }
                guard closed else { return .failure("a quoted string is not closed") }
                words.append(quoted)
            default:
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return .success(words)
    }
}
