import ModuleProtocol

/// The `symbols:` part of one of speech-dispatcher's locale dictionaries (`symbols.dic`,
/// `emojis.dic`: one `identifier<TAB>replacement[<TAB>level…]` per line), which name symbols and
/// emoji in about 170 languages. Only single-character identifiers are kept: they name what a
/// CHAR message carries. Never fails: lines it cannot use are skipped.
public enum SymbolDictionary {
    public static func parse(_ text: String) -> [String: String] {
        var names: [String: String] = [:]
        var inSymbols = false
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            var line = Substring(rawLine)
            if line.first == "\u{FEFF}" { line = line.dropFirst() }
            if line.hasSuffix(":") && !line.contains("\t") {
                inSymbols = line == "symbols:"
                continue
            }
            guard inSymbols, line.first != "#" else { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 2 else { continue }
            // A leading backslash escapes `#` and names control characters (`\t`).
            var identifier = String(fields[0])
            if identifier.first == "\\" && identifier.count == 2 {
                switch identifier.last {
                case "t": identifier = "\t"
                case "n": identifier = "\n"
                case "r": identifier = "\r"
                case "f": identifier = "\u{0C}"
                case "0": identifier = "\0"
                case let other?: identifier = String(other)
                case nil: break
                }
            }
            let replacement = String(fields[1].trimmingSpaces())
            guard identifier.count == 1, !replacement.isEmpty, names[identifier] == nil else { continue }
            names[identifier] = replacement
        }
        return names
    }
}


