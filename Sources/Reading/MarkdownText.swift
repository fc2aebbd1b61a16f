/// Markdown turned into the text a listener should hear: the words of headings, paragraphs, list
/// items, quotations and table cells, each block a paragraph of its own (blocks are separated by a
/// blank line, so each ends a sentence); markup, link targets, HTML tags and code blocks left out.
public enum MarkdownText {
    /// The readable text of `markdown`.
    public static func readable(_ markdown: String) -> String {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? $0.dropLast() : $0
        }
        var blocks: [String] = []
        var paragraph: [Substring] = []
        var inList = false
        func endParagraph() {
            // A line of markup only (`<br>`) leaves nothing, not an empty line that would end the paragraph.
            let text = paragraph.map { inline($0)[...].trimmingWhitespace() }.filter { !$0.isEmpty }.joined(
                separator: "\n")
            if text.contains(where: { $0.isLetter || $0.isNumber }) { blocks.append(text) }
            paragraph.removeAll()
        }
        func block(_ text: Substring) {
            endParagraph()
            paragraph = [text]
            endParagraph()
        }
        var index = 0
        while index < lines.count {
            let rawLine = lines[index]
            index += 1
            var line = rawLine.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("```") || line.hasPrefix("~~~") {
                endParagraph()
                let fence = line.prefix { $0 == line.first }
                while index < lines.count {
                    let closing = lines[index].drop { $0 == " " }
                    index += 1
                    if closing.hasPrefix(fence) && closing.allSatisfy({ $0 == fence.first || $0.isWhitespace }) {
                        break
                    }
                }
                continue
            }
            if line.hasPrefix("<!--") {
                endParagraph()
                index -= 1
                while index < lines.count, !lines[index].contains("-->") { index += 1 }
                index += 1
                continue
            }
            // An indented block after a blank line is code, unless it is part of a list.
            if paragraph.isEmpty, !inList, rawLine.hasPrefix("    ") || rawLine.hasPrefix("\t") { continue }
            while line.hasPrefix(">") { line = line.dropFirst().drop { $0 == " " } }
            if line.allSatisfy(\.isWhitespace) || isRule(line) || isReferenceDefinition(line) {
                endParagraph()
                if line.allSatisfy(\.isWhitespace) == false { inList = false }
            } else if let heading = heading(line) {
                block(heading)
                inList = false
            } else if isSetextUnderline(line), !paragraph.isEmpty {
                endParagraph()
            } else if isTableSeparator(line) {
                continue
            } else if line.hasPrefix("|") || (index < lines.count && isTableSeparator(lines[index].drop { $0 == " " }))
            {
                block(Substring(tableRow(line)))
            } else if let item = listItem(line) {
                endParagraph()
                paragraph = [item]
                inList = true
            } else {
                if paragraph.isEmpty && rawLine.first != " " { inList = false }
                paragraph.append(line)
            }
        }
        endParagraph()
        return blocks.joined(separator: "\n\n")
    }

    private static func heading(_ line: Substring) -> Substring? {
        let hashes = line.prefix { $0 == "#" }
        guard (1...6).contains(hashes.count) else { return nil }
        let rest = line.dropFirst(hashes.count)
        guard rest.isEmpty || rest.first == " " else { return nil }
        var text = rest.drop { $0 == " " }
        while text.last == "#" || text.last == " " { text = text.dropLast() }
        return text
    }

    /// `---`, `***`, `___` (three or more, spaces between allowed): a thematic break.
    private static func isRule(_ line: Substring) -> Bool {
        let marks = line.filter { $0 != " " }
        guard marks.count >= 3, let mark = marks.first, "-*_".contains(mark) else { return false }
        return marks.allSatisfy { $0 == mark }
    }

    private static func isSetextUnderline(_ line: Substring) -> Bool {
        let trimmed = line.trimmingSuffix(while: \.isWhitespace)
        return !trimmed.isEmpty && trimmed.allSatisfy { $0 == "=" }
    }

    private static func isTableSeparator(_ line: Substring) -> Bool {
        line.contains("-") && line.contains("|") && line.allSatisfy { "|-: ".contains($0) }
    }

    /// `[name]: https://…`, which Markdown shows nowhere.
    private static func isReferenceDefinition(_ line: Substring) -> Bool {
        guard line.first == "[", let close = line.firstIndex(of: "]") else { return false }
        return line[line.index(after: close)...].hasPrefix(":")
    }

    private static func tableRow(_ line: Substring) -> String {
        var cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
            $0.trimmingWhitespace()
        }
        if cells.first?.isEmpty == true { cells.removeFirst() }
        if cells.last?.isEmpty == true { cells.removeLast() }
        return cells.filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// A list item's text without its marker (`- `, `* `, `+ `, `1. `, `1) `) or task box.
    private static func listItem(_ line: Substring) -> Substring? {
        var rest: Substring
        if let mark = line.first, "-*+".contains(mark), line.dropFirst().first == " " {
            rest = line.dropFirst(2)
        } else {
            let digits = line.prefix { $0.isASCII && $0.isNumber }
            let after = line.dropFirst(digits.count)
            guard (1...9).contains(digits.count), let mark = after.first, mark == "." || mark == ")",
                after.dropFirst().first == " "
            else { return nil }
            rest = after.dropFirst(2)
        }
        rest = rest.drop { $0 == " " }
        for box in ["[ ] ", "[x] ", "[X] "] where rest.hasPrefix(box) { rest = rest.dropFirst(box.count) }
        return rest
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        trimmingPrefix(while: \.isWhitespace).trimmingSuffix(while: \.isWhitespace)
    }

    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
