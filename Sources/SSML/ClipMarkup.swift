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

    /// `ssml` with the phrases `find` returns for each text replaced by their clips. Without
    /// `keepsOtherText`, the text no clip covers is left out and a clip that cannot be played
    /// has no fallback; marks, breaks and the rest of the markup stay.
    public static func replacingPhrases(
        in ssml: String, keepsOtherText: Bool, find: (String) -> [Phrase]
    ) -> String {
        var result = ""
        result.reserveCapacity(ssml.utf8.count + ssml.utf8.count / 8)
        var untouchedDepth: [String: Int] = [:]
        var untouched = 0
        for token in SSMLReader.tokens(of: ssml) {
            switch token {
            case .text(let text):
                guard untouched == 0 else {
                    if keepsOtherText { result += SSMLText.escape(text) }
                    continue
                }
                var written = text.startIndex
                for phrase in find(text) where phrase.range.lowerBound >= written {
                    if keepsOtherText { result += SSMLText.escape(String(text[written..<phrase.range.lowerBound])) }
                    let source = SSMLText.escape(phrase.clip, quotes: true)
                    if keepsOtherText {
                        result += "<audio src=\"\(source)\">\(SSMLText.escape(String(text[phrase.range])))</audio>"
                    } else {
                        result += "<audio src=\"\(source)\"/>"
                    }
                    written = phrase.range.upperBound
                }
                if keepsOtherText { result += SSMLText.escape(String(text[written...])) }
            case .startTag(let name, let attributes, let isSelfClosing):
                result += "<\(name)"
                for attribute in attributes {
                    result += " \(attribute.name)=\"\(SSMLText.escape(attribute.value, quotes: true))\""
                }
                result += isSelfClosing ? "/>" : ">"
                if !isSelfClosing, untouchedElements.contains(localName(name)) {
                    untouchedDepth[name, default: 0] += 1
                    untouched += 1
                }
            case .endTag(let name):
                result += "</\(name)>"
                if let depth = untouchedDepth[name], depth > 0 {
                    untouchedDepth[name] = depth - 1
                    untouched -= 1
                }
            }
        }
        return result
    }

    private static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name.lowercased() }
        return name[name.index(after: colon)...].lowercased()
    }
}
