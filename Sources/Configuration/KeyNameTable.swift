import ModuleProtocol

/// Utter's key names for one language: `KeyName "ssip-name" "words"` lines (dotconf), one file
/// per language (`conf/keys/de.conf`), so KEY messages are spoken in the message language.
public enum KeyNameTable {
    /// The names in `text`, keyed by lowercased SSIP key name, and the lines that could not be read.
    public static func parse(_ text: String) -> (names: [String: String], issues: [ConfigurationIssue]) {
        let (entries, parseIssues) = DotconfParser.parse(text)
        var issues = parseIssues
        var names: [String: String] = [:]
        for entry in entries {
            guard entry.key.lowercased() == "keyname" else {
                issues.append(
                    ConfigurationIssue(
                        lineNumber: entry.lineNumber,
                        message: "unknown setting \(entry.key.debugDescription) in a key name table, skipped"))
                continue
            }
            guard entry.arguments.count == 2, !entry.arguments[0].isEmpty, !entry.arguments[1].isEmpty else {
                issues.append(
                    ConfigurationIssue(
                        lineNumber: entry.lineNumber, message: "KeyName needs a key name and the words for it"))
                continue
            }
            names[entry.arguments[0].lowercased()] = entry.arguments[1]
        }
        return (names, issues)
    }
}
