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

    /// The `<audio>` attribute that carries the number of words of the phrase a clip says, for
    /// its pace (``words(in:)``); not written into ``replacingPhrases(in:keepsOtherText:find:)``'s SSML.
    public static let wordsAttribute = "utter-clip-words"

    /// `ssml` with the phrases `find` returns for each text replaced by their clips, as SSML: the
    /// document the segmenter reads for a clip voice (``Segmenter/clips``). Text interrupted only
    /// by marks (Orca marks every word) is searched as one text; a mark that falls inside a phrase
    /// is put just before its clip. Without `keepsOtherText`, the text no clip covers is left out
    /// and a clip that cannot be played has no fallback; marks, breaks and the rest of the markup
    /// stay.
    public static func replacingPhrases(
        in ssml: String, keepsOtherText: Bool, find: @escaping @Sendable (String) -> [Phrase]
    ) -> String {
        var tokens = SSMLTokens(ssml)
        var clips = ClipTokens(ClipPhrases(keepsOtherText: keepsOtherText, find: find))
        var result = ""
        result.reserveCapacity(ssml.utf8.count + ssml.utf8.count / 8)
        while let token = clips.next(from: &tokens) {
            switch token {
            case .text(let text): result += SSMLText.escape(text)
            case .startTag(let name, let attributes, let isSelfClosing):
                result += tag(name, attributes.filter { $0.name != wordsAttribute }, isSelfClosing: isSelfClosing)
            case .endTag(let name): result += "</\(name)>"
            }
        }
        return result
    }

    /// The words of a phrase, for its pace; 0 (its pace unknown) in a script written without
    /// spaces between words (Han, kana, Thai, Lao, Khmer, Myanmar).
    public static func words(in phrase: Substring) -> Int {
        let unspaced = phrase.unicodeScalars.contains { scalar in
            scalar.properties.isIdeographic || (0x3040...0x30FF).contains(scalar.value)
                || (0x0E00...0x0EFF).contains(scalar.value) || (0x1000...0x109F).contains(scalar.value)
                || (0x1780...0x17FF).contains(scalar.value)
        }
        return unspaced ? 0 : phrase.split(whereSeparator: \.isWhitespace).count
    }

    private static func tag(_ name: String, _ attributes: [SSMLAttribute], isSelfClosing: Bool) -> String {
        var tag = "<\(name)"
        for attribute in attributes {
            tag += " \(attribute.name)=\"\(SSMLText.escape(attribute.value, quotes: true))\""
        }
        return tag + (isSelfClosing ? "/>" : ">")
    }

    static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name.lowercased() }
        return name[name.index(after: colon)...].lowercased()
    }
}
