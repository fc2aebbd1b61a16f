/// Cuts a text into the pieces an analyser is given one at a time.
///
/// Control characters (NUL among them) are never given: MeCab reads C strings in places. Lines and
/// sentences are analysed apart, and a piece is at most `limit` scalars, so that a long message
/// (a megabyte of text) keeps the analyser's lattice small and MeCab's 16-bit morpheme lengths
/// are never reached.
public enum TextPieces {
    public static let limit = 1024

    /// The ranges of the pieces, in order, not overlapping; the scalars between them are control
    /// characters.
    public static func pieces(of scalars: [Unicode.Scalar], limit: Int = limit) -> [Range<Int>] {
        var pieces: [Range<Int>] = []
        var start = 0
        var lastBreak: Int? = nil  // the end of the last sentence or space in the piece
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar.properties.generalCategory == .control {
                if start < index { pieces.append(start..<index) }
                start = index + 1
                lastBreak = nil
            } else {
                if index - start >= limit {
                    let end = lastBreak ?? index
                    pieces.append(start..<end)
                    start = end
                    lastBreak = nil
                }
                if sentenceEnds.contains(scalar) || scalar.properties.isWhitespace { lastBreak = index + 1 }
            }
            index += 1
        }
        if start < scalars.count { pieces.append(start..<scalars.count) }
        return pieces
    }

    private static let sentenceEnds: Set<Unicode.Scalar> = ["。", "！", "？", "!", "?", "．", "\u{2029}"]
}
