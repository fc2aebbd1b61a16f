/// Where ``SSMLTokens`` cuts long text: after a sentence that surely ends, once a piece holds
/// `minimumBytes`; failing that (text with no such end), at a space, or at a character, once it
/// holds `maximumBytes`. A piece is read, segmented and spoken while the rest waits, so a
/// megabyte of text starts as soon as a paragraph of it.
///
/// Cutting is optional, so it is cautious: a sentence ends at `.` `!` `?` followed by space and a
/// capital, a digit or an opening quote, when the word before a `.` is no abbreviation-like word
/// (`Dr.`, `e.g.`, `U.S.`, `fig. 3`, initials: short, or capitalized and short), and at `。` `！` `？` not
/// followed by a closing bracket. A missed end only makes a piece longer.
///
/// In a long document (`longDocumentBytes` or more) the first piece is cut sooner, after
/// `firstMinimumBytes`: its reading (a Japanese text's by MeCab, a neural voice's phonemes) is
/// all that stands before the first sound. Shorter documents are cut as before, or not at all.
public struct TextPieces: Equatable, Sendable {
    public var minimumBytes: Int
    public var maximumBytes: Int
    public var firstMinimumBytes: Int
    public var longDocumentBytes: Int

    public init(
        minimumBytes: Int = 1024, maximumBytes: Int = 64 << 10, firstMinimumBytes: Int = 256,
        longDocumentBytes: Int = 4096
    ) {
        precondition(minimumBytes > 0 && maximumBytes >= minimumBytes && firstMinimumBytes > 0)
        self.minimumBytes = minimumBytes
        self.maximumBytes = maximumBytes
        self.firstMinimumBytes = firstMinimumBytes
        self.longDocumentBytes = longDocumentBytes
    }

    /// The least a piece holds before it may be cut at a sentence end: `isFirst` for the
    /// document's first, of `documentBytes`.
    func minimum(isFirst: Bool, documentBytes: Int) -> Int {
        isFirst && documentBytes >= longDocumentBytes ? min(firstMinimumBytes, minimumBytes) : minimumBytes
    }

    /// A cut just after the byte at `index` (read as text, the piece so far starting at
    /// `pieceStart`): where the piece ends, and whether a sentence ends there; nil: no cut here.
    /// Never inside a character: a combining mark, a joiner or a modifier after the cut would
    /// change what the characters on both sides are.
    func cut(in s: UnsafeBufferPointer<UInt8>, after index: Int, pieceStart: Int) -> (end: Int, isSentenceEnd: Bool)? {
        // (Nor before an entity, which may stand for a combining mark.)
        guard let cut = anyCut(in: s, after: index, pieceStart: pieceStart),
            cut.end < s.count, s[cut.end] != ascii("&"), Self.startsCharacter(in: s, at: cut.end)
        else { return nil }
        return cut
    }

    /// Whether a character starts at `index` (a scalar boundary): the scalar there extends none
    /// before it, and the one before it joins nothing to it.
    static func startsCharacter(in s: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index > 0 else { return true }
        if s[index] < 0x80 && s[index - 1] < 0x80 { return !(s[index - 1] == ascii("\r") && s[index] == ascii("\n")) }
        let next = SSMLTokens.scalar(in: s, at: index).scalar
        let properties = next.properties
        if properties.isGraphemeExtend || properties.isEmojiModifier || properties.isVariationSelector
            || properties.generalCategory == .spacingMark || next.value == 0x200D
            || (0x1160...0x11FF).contains(next.value) || (0xD7B0...0xD7FF).contains(next.value)
        {
            return false
        }
        // The scalar before: back over its continuation bytes.
        var start = index - 1
        while start > 0 && s[start] & 0xC0 == 0x80 { start -= 1 }
        let before = SSMLTokens.scalar(in: s, at: start).scalar
        // A joiner, a leading Hangul jamo, or a prepended sign (Arabic number signs and the like)
        // joins what follows it.
        let prepended: [ClosedRange<UInt32>] = [
            0x600...0x605, 0x6DD...0x6DD, 0x70F...0x70F, 0x890...0x891, 0x8E2...0x8E2, 0xD4E...0xD4E,
            0x110BD...0x110BD, 0x110CD...0x110CD, 0x111C2...0x111C3, 0x1193F...0x1193F, 0x11941...0x11941,
            0x11A3A...0x11A3A, 0x11A84...0x11A89, 0x11D46...0x11D46,
        ]
        if before.value == 0x200D || (0x1100...0x115F).contains(before.value)
            || prepended.contains(where: { $0.contains(before.value) })
        {
            return false
        }
        let isRegional = { (scalar: Unicode.Scalar) in (0x1F1E6...0x1F1FF).contains(scalar.value) }
        return !(isRegional(before) && isRegional(next))
    }

    private func anyCut(in s: UnsafeBufferPointer<UInt8>, after index: Int, pieceStart: Int) -> (end: Int, isSentenceEnd: Bool)? {
        let byte = s[index]
        switch byte {
        case ascii("."), ascii("!"), ascii("?"):
            if let end = Self.asciiSentenceEnd(in: s, at: index) { return (end, true) }
        case 0x82, 0x81, 0x9F:
            // The last byte of 。 (E3 80 82), ！ (EF BC 81), ？ (EF BC 9F).
            if index >= 2, let end = Self.wideSentenceEnd(in: s, endingAt: index) { return (end, true) }
        default:
            break
        }
        guard index + 1 - pieceStart >= maximumBytes else { return nil }
        if SSMLTokens.isSpace(byte) { return (index + 1, false) }
        // Text with no space at all (a script written without them): at the next character, or
        // at twice the length wherever a character starts.
        let next = index + 1
        guard next < s.count, next - pieceStart >= 2 * maximumBytes, s[next] & 0xC0 != 0x80 else { return nil }
        return (next, false)
    }

    /// After `.`, `!` or `?` at `index`, the end of the spaces that follow it when a sentence surely
    /// ends there.
    private static func asciiSentenceEnd(in s: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        var end = index + 1
        while end < s.count, SSMLTokens.isSpace(s[end]) { end += 1 }
        guard end > index + 1, end < s.count else { return nil }
        let next = s[end]
        let opens =
            (next >= ascii("A") && next <= ascii("Z")) || (next >= ascii("0") && next <= ascii("9"))
            || next == ascii("\"") || next == ascii("'") || next == ascii("(")
            // “ ‘ (E2 80 9C, E2 80 98)
            || (next == 0xE2 && end + 2 < s.count && s[end + 1] == 0x80 && (s[end + 2] == 0x9C || s[end + 2] == 0x98))
        guard opens else { return nil }
        guard s[index] == ascii(".") else { return end }
        // The word before the full stop: letters back to a space.
        var start = index
        while start > 0, isLetter(s[start - 1]) { start -= 1 }
        let letters = index - start
        if letters == 0 {
            // A digit ends a sentence ("in 1999."), anything else (a quote, a bracket) is unsure.
            return index > 0 && s[index - 1] >= ascii("0") && s[index - 1] <= ascii("9") ? end : nil
        }
        // A word glued to a full stop before it is an initialism ("e.g", "U.S").
        if start > 0, s[start - 1] == ascii(".") { return nil }
        let capitalized = s[start] >= ascii("A") && s[start] <= ascii("Z")
        // Before a number, short words are abbreviations too ("fig. 3", "vol. 2", "ch. 12").
        let isDigit = next >= ascii("0") && next <= ascii("9")
        return letters >= (capitalized ? 6 : isDigit ? 5 : 3) ? end : nil
    }

    /// After a wide sentence end whose last byte is at `index`, where the piece ends: after the
    /// spaces that follow it; nil when it is no 。！？ or a closing bracket or quote follows.
    private static func wideSentenceEnd(in s: UnsafeBufferPointer<UInt8>, endingAt index: Int) -> Int? {
        let (a, b, c) = (s[index - 2], s[index - 1], s[index])
        let isEnd = (a == 0xE3 && b == 0x80 && c == 0x82) || (a == 0xEF && b == 0xBC && (c == 0x81 || c == 0x9F))
        guard isEnd else { return nil }
        var end = index + 1
        while end < s.count, SSMLTokens.isSpace(s[end]) { end += 1 }
        guard end < s.count else { return nil }
        // 」』】〉》〕 (E3 80 8D/8F/91/89/8B/95), ） (EF BC 89), ” ’ (E2 80 9D/99), and the ASCII ones.
        if end + 2 < s.count {
            let (x, y, z) = (s[end], s[end + 1], s[end + 2])
            if x == 0xE3 && y == 0x80 && [0x8D, 0x8F, 0x91, 0x89, 0x8B, 0x95].contains(z) { return nil }
            if x == 0xEF && y == 0xBC && z == 0x89 { return nil }
            if x == 0xE2 && y == 0x80 && (z == 0x9D || z == 0x99) { return nil }
        }
        if s[end] == ascii(")") || s[end] == ascii("\"") || s[end] == ascii("'") { return nil }
        return end
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        let folded = byte | 0x20
        return folded >= ascii("a") && folded <= ascii("z")
    }
}
