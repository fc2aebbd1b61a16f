/// Puts recorded clips in the place of the phrases they say, for clip voices.
///
/// The result is SSML again, each phrase turned into `<audio src="clip">phrase</audio>`, so the
/// segmenter makes every clip a sound segment of its own, keeps every mark where it was, and the
/// phrase itself is spoken if its clip cannot be played. Comments, processing instructions and
/// declarations, which say nothing, are not written back.
public enum ClipMarkup {
    /// A phrase found in a text and the clip that says it.
    public typealias Phrase = (range: Range<String.Index>, clip: String)

    /// Elements whose content is not read as plain words: it keeps its own meaning.
    static let untouchedElements: Set<String> = ["audio", "say-as", "sub", "phoneme"]

    /// `ssml` with the phrases `find` returns for each text replaced by their clips. Text
    /// interrupted only by marks (Orca marks every word) is searched as one text; a mark that
    /// falls inside a phrase is put just before its clip. Without `keepsOtherText`, the text no
    /// clip covers is left out and a clip that cannot be played has no fallback; marks, breaks
    /// and the rest of the markup stay.
    public static func replacingPhrases(
        in ssml: String, keepsOtherText: Bool, find: (String) -> [Phrase]
    ) -> String {
        var writer = Writer(keepsOtherText: keepsOtherText)
        writer.result.reserveCapacity(ssml.utf8.count + ssml.utf8.count / 8)
        var untouchedDepth: [String: Int] = [:]
        var untouched = 0
        for token in SSMLReader.tokens(of: ssml) {
            switch token {
            case .text(let text):
                if untouched == 0 {
                    writer.run.append(text: text)
                } else if keepsOtherText {
                    writer.result += SSMLText.escape(text)
                }
            case .startTag(let name, let attributes, let isSelfClosing):
                if untouched == 0, isSelfClosing, localName(name) == "mark" {
                    writer.run.append(mark: tag(name, attributes, isSelfClosing: true))
                    continue
                }
                writer.flush(find)
                writer.result += tag(name, attributes, isSelfClosing: isSelfClosing)
                if !isSelfClosing, untouchedElements.contains(localName(name)) {
                    untouchedDepth[name, default: 0] += 1
                    untouched += 1
                }
            case .endTag(let name):
                writer.flush(find)
                writer.result += "</\(name)>"
                if let depth = untouchedDepth[name], depth > 0 {
                    untouchedDepth[name] = depth - 1
                    untouched -= 1
                }
            }
        }
        writer.flush(find)
        return writer.result
    }

    /// Text and the marks between its pieces, searched for phrases as one.
    private struct Run {
        var text = ""
        /// Each mark's tag and the offset in `text` (in UTF-8 bytes) it stands at, in order.
        var marks: [(offset: Int, tag: String)] = []

        mutating func append(text more: String) { text += more }
        mutating func append(mark: String) { marks.append((text.utf8.count, mark)) }
        var isEmpty: Bool { text.isEmpty && marks.isEmpty }
    }

    private struct Writer {
        let keepsOtherText: Bool
        var result = ""
        var run = Run()

        /// Writes the run: its text, its phrases as clips, its marks in their places.
        mutating func flush(_ find: (String) -> [Phrase]) {
            guard !run.isEmpty else { return }
            let text = run.text
            var marks = run.marks[...]
            run = Run()
            var written = text.startIndex
            func offset(_ index: String.Index) -> Int { text.utf8.distance(from: text.startIndex, to: index) }
            /// Writes the text up to `end` with the marks that stand before it (and at it).
            func writeText(to end: String.Index) {
                let endOffset = offset(end)
                while let mark = marks.first, mark.offset <= endOffset {
                    let at = text.utf8.index(text.startIndex, offsetBy: mark.offset)
                    if keepsOtherText, at > written { result += SSMLText.escape(String(text[written..<at])) }
                    if at > written { written = at }
                    result += mark.tag
                    marks.removeFirst()
                }
                if keepsOtherText, end > written { result += SSMLText.escape(String(text[written..<end])) }
                if end > written { written = end }
            }
            for phrase in find(text) where phrase.range.lowerBound >= written {
                writeText(to: phrase.range.lowerBound)
                // Marks inside the phrase: heard when its clip starts.
                let phraseEnd = offset(phrase.range.upperBound)
                while let mark = marks.first, mark.offset < phraseEnd {
                    result += mark.tag
                    marks.removeFirst()
                }
                let source = SSMLText.escape(phrase.clip, quotes: true)
                if keepsOtherText {
                    result += "<audio src=\"\(source)\">\(SSMLText.escape(String(text[phrase.range])))</audio>"
                } else {
                    result += "<audio src=\"\(source)\"/>"
                }
                written = phrase.range.upperBound
            }
            writeText(to: text.endIndex)
        }
    }

    private static func tag(_ name: String, _ attributes: [SSMLAttribute], isSelfClosing: Bool) -> String {
        var tag = "<\(name)"
        for attribute in attributes {
            tag += " \(attribute.name)=\"\(SSMLText.escape(attribute.value, quotes: true))\""
        }
        return tag + (isSelfClosing ? "/>" : ">")
    }

    private static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name.lowercased() }
        return name[name.index(after: colon)...].lowercased()
    }
}
