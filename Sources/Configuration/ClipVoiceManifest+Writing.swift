extension ClipVoiceManifest {
    /// The manifest as `voice.conf` text, which `parse` reads back into this manifest.
    ///
    /// Values hold no line break (a dotconf value cannot): callers check names, phrases and files first.
    public var text: String {
        var lines = [
            line("Name", name), line("Identifier", identifier), line("PrimaryLanguage", primaryLanguages),
        ]
        if !supportedLanguages.isEmpty { lines.append(line("SupportedLanguages", supportedLanguages)) }
        switch fallback {
        case .languageDefault: break
        case .espeak(let voice): lines.append(line("Fallback", "espeak-ng", voice))
        case .none: lines.append("Fallback none")
        }
        lines += clips.map { line("Clip", $0.phrase, $0.file) }
        return lines.map { $0 + "\n" }.joined()
    }

    private func line(_ key: String, _ values: String...) -> String {
        line(key, values)
    }

    private func line(_ key: String, _ values: [String]) -> String {
        ([key] + values.map(DotconfParser.quoted)).joined(separator: " ")
    }
}

extension DotconfParser {
    /// `value` in double quotes, its quotes and backslashes escaped, as `parse` reads it back.
    public static func quoted(_ value: String) -> String {
        precondition(!value.contains("\n"), "a dotconf value cannot hold a line break")
        var result = "\""
        for character in value {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }
}
