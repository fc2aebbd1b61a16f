extension MarkdownText {
    /// A line's text without inline markup: emphasis marks, link targets, HTML tags and escapes go;
    /// link texts, image descriptions and code spans stay.
    static func inline(_ line: Substring) -> String {
        var output = ""
        var index = line.startIndex
        func character(at offset: Int) -> Character? {
            line.index(index, offsetBy: offset, limitedBy: line.endIndex).flatMap {
                $0 < line.endIndex ? line[$0] : nil
            }
        }
        while index < line.endIndex {
            let current = line[index]
            let previous = index > line.startIndex ? line[line.index(before: index)] : " "
            switch current {
            case "\\" where character(at: 1).map { $0.isASCII && $0.isPunctuation || $0.isSymbol } == true:
                output.append(line[line.index(after: index)])
                index = line.index(index, offsetBy: 2)
            case "`":
                let ticks = line[index...].prefix { $0 == "`" }
                let rest = line[ticks.endIndex...]
                if let close = rest.firstRange(of: ticks) {
                    output += rest[..<close.lowerBound].trimmingPrefix(" ")
                    index = close.upperBound
                } else {
                    output += ticks
                    index = ticks.endIndex
                }
            case "!" where character(at: 1) == "[":
                index = line.index(after: index)
            case "[":
                guard let (text, end) = link(in: line, at: index) else {
                    output.append(current)
                    index = line.index(after: index)
                    continue
                }
                output += inline(text)
                index = end
            case "<":
                if let close = line[index...].firstIndex(of: ">") {
                    let inside = line[line.index(after: index)..<close]
                    if inside.contains(":") || inside.contains("@"), !inside.contains(" ") {
                        output += inside  // an automatic link: its address is its text
                        index = line.index(after: close)
                        continue
                    }
                    if let first = inside.first, first.isLetter || first == "/" || first == "!" {
                        index = line.index(after: close)
                        continue
                    }
                }
                output.append(current)
                index = line.index(after: index)
            case "&":
                if let semicolon = line[index...].prefix(10).firstIndex(of: ";"),
                    let decoded = entities[String(line[line.index(after: index)..<semicolon])]
                {
                    output.append(decoded)
                    index = line.index(after: semicolon)
                } else {
                    output.append(current)
                    index = line.index(after: index)
                }
            case "*", "_", "~":
                let run = line[index...].prefix { $0 == current }
                let next = run.endIndex < line.endIndex ? line[run.endIndex] : " "
                let flanking = !(previous.isWhitespace && next.isWhitespace)
                let intraword =
                    current == "_" && (previous.isLetter || previous.isNumber) && (next.isLetter || next.isNumber)
                if !flanking || intraword || (current == "~" && run.count == 1) { output += run }
                index = run.endIndex
            default:
                output.append(current)
                index = line.index(after: index)
            }
        }
        return output
    }

    /// A link or image at `start` (`[text](target)`, `[text][name]`, `[text]`): its text and where
    /// it ends; nil for a footnote reference, which is dropped whole, or no link at all.
    private static func link(in line: Substring, at start: Substring.Index) -> (Substring, Substring.Index)? {
        var depth = 0
        var close: Substring.Index?
        for position in line[start...].indices {
            if line[position] == "[" { depth += 1 }
            if line[position] == "]" {
                depth -= 1
                if depth == 0 {
                    close = position
                    break
                }
            }
        }
        guard let close else { return nil }
        let text = line[line.index(after: start)..<close]
        var end = line.index(after: close)
        if text.hasPrefix("^") { return ("", end) }
        if end < line.endIndex, line[end] == "(" || line[end] == "[" {
            let closing: Character = line[end] == "(" ? ")" : "]"
            if let target = line[end...].firstIndex(of: closing) { end = line.index(after: target) }
        }
        return (text, end)
    }

    private static let entities: [String: Character] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "#39": "'", "nbsp": " ", "mdash": "—",
        "ndash": "–", "hellip": "…", "copy": "©", "shy": "\u{AD}",
    ]
}
