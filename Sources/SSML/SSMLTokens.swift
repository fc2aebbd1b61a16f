/// The tokens of an SSML document, read one at a time from its UTF-8 bytes, as ``SSMLReader``
/// reads them: the work before the first token is that token's, whatever the document's length.
///
/// With `textPieces`, long text is handed over in pieces, cut where a sentence surely ends (see
/// ``TextPieces``), so that what reads the tokens can go on with the first sentences while the
/// rest of a long message waits; without, adjacent text comes as one token, as ``SSMLReader/tokens(of:)``
/// gives it. Markup characters are ASCII, so the document is read byte by byte and decoded only
/// in names and where text is handed over: no scalar array, no copy of the document.
public struct SSMLTokens: Sequence, IteratorProtocol {
    private let source: String
    private let pieces: TextPieces?
    private var index = 0
    private var queued: SSMLToken?
    /// Whether text was cut into pieces yet: the first piece of a long document is shorter.
    private var hasCut = false
    private var terminators = Terminators()
    /// Whether the last token was text cut by `textPieces`: the next one goes on with the same text.
    public private(set) var endedInText = false
    /// Whether the last text token ended where a sentence surely ends, cut there by `textPieces`.
    public private(set) var endedAtSentence = false

    public init(_ source: String, textPieces: TextPieces? = nil) {
        var source = source
        source.makeContiguousUTF8()
        self.source = source
        self.pieces = textPieces
    }

    /// How far into the document's UTF-8 bytes reading has come.
    public var bytesRead: Int { index }

    public mutating func next() -> SSMLToken? {
        if let token = queued {
            queued = nil
            return token
        }
        endedAtSentence = false
        endedInText = false
        let source = self.source
        return source.utf8.withContiguousStorageIfAvailable { next(in: $0) } ?? nil
    }

    private mutating func next(in s: UnsafeBufferPointer<UInt8>) -> SSMLToken? {
        var text = ""
        var run = index
        var pieceStart = index
        func flushRun(_ end: Int) {
            if end > run { text += String(decoding: UnsafeBufferPointer(rebasing: s[run..<end]), as: UTF8.self) }
        }
        while index < s.count {
            let byte = s[index]
            if byte == ascii("<") {
                if let (token, next) = tag(in: s, at: index) {
                    flushRun(index)
                    index = next
                    run = next
                    guard text.isEmpty else {
                        queued = token
                        return .text(text)
                    }
                    if let token { return token }
                    pieceStart = next
                    continue
                }
                index += 1
            } else if byte == ascii("&") {
                flushRun(index)
                let (decoded, next) = Self.entity(in: s, at: index, end: s.count)
                text += decoded
                index = next
                run = next
            } else {
                index += 1
                // (Text goes on after a cut: at the document's end or a tag it ends anyway.)
                if let pieces,
                    index - pieceStart >= pieces.minimum(isFirst: !hasCut, documentBytes: s.count),
                    let cut = pieces.cut(in: s, after: index - 1, pieceStart: pieceStart),
                    cut.end < s.count, s[cut.end] != ascii("<")
                {
                    flushRun(cut.end)
                    index = cut.end
                    hasCut = true
                    endedInText = true
                    endedAtSentence = cut.isSentenceEnd
                    return .text(text)
                }
            }
        }
        flushRun(index)
        return text.isEmpty ? nil : .text(text)
    }

    /// Parses markup starting at `<`; nil when it is no markup (then `<` is text). A nil token
    /// with an index means markup that is skipped (comment, declaration, instruction).
    private mutating func tag(in s: UnsafeBufferPointer<UInt8>, at start: Int) -> (SSMLToken?, Int)? {
        var i = start + 1
        guard i < s.count else { return nil }
        if s[i] == ascii("!") {
            if Self.matches(s, at: i, "!--") {
                guard let end = terminators.commentEnd.next(from: i + 3, count: s.count, where: { Self.matches(s, at: $0, "-->") })
                else { return nil }
                return (nil, end + 3)
            }
            if Self.matches(s, at: i, "![CDATA[") {
                guard let end = terminators.cdataEnd.next(from: i + 8, count: s.count, where: { Self.matches(s, at: $0, "]]>") })
                else { return nil }
                return (.text(String(decoding: UnsafeBufferPointer(rebasing: s[(i + 8)..<end]), as: UTF8.self)), end + 3)
            }
            // DOCTYPE and other declarations: up to the first `>`, or, with an internal subset,
            // up to the `]` and `>` that close it (a `>` inside the subset ends nothing).
            guard
                let stop = terminators.declarationStop.next(
                    from: i, count: s.count, where: { s[$0] == ascii(">") || s[$0] == ascii("[") })
            else { return nil }
            if s[stop] == ascii(">") { return (nil, stop + 1) }
            func afterSpaces(_ index: Int) -> Int {
                var index = index
                while index < s.count, Self.isSpace(s[index]) { index += 1 }
                return index
            }
            guard
                let close = terminators.subsetEnd.next(
                    from: stop + 1, count: s.count,
                    where: { s[$0] == ascii("]") && afterSpaces($0 + 1) < s.count && s[afterSpaces($0 + 1)] == ascii(">") })
            else { return nil }
            return (nil, afterSpaces(close + 1) + 1)
        }
        if s[i] == ascii("?") {
            guard let end = terminators.instructionEnd.next(from: i + 1, count: s.count, where: { Self.matches(s, at: $0, "?>") })
            else { return nil }
            return (nil, end + 2)
        }
        var isEnd = false
        if s[i] == ascii("/") {
            isEnd = true
            i += 1
        }
        let nameStart = i
        i = Self.nameEnd(in: s, from: i)
        guard i > nameStart, Self.isNameStartScalar(Self.scalar(in: s, at: nameStart).scalar) else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: s[nameStart..<i]), as: UTF8.self)
        if isEnd {
            while i < s.count, Self.isSpace(s[i]) { i += 1 }
            guard i < s.count, s[i] == ascii(">") else { return nil }
            return (.endTag(name: name), i + 1)
        }
        var attributes: [SSMLAttribute] = []
        while true {
            while i < s.count, Self.isSpace(s[i]) { i += 1 }
            guard i < s.count else { return nil }
            if s[i] == ascii(">") {
                return (.startTag(name: name, attributes: attributes, isSelfClosing: false), i + 1)
            }
            if s[i] == ascii("/") {
                guard i + 1 < s.count, s[i + 1] == ascii(">") else { return nil }
                return (.startTag(name: name, attributes: attributes, isSelfClosing: true), i + 2)
            }
            let attributeStart = i
            i = Self.nameEnd(in: s, from: i)
            guard i > attributeStart else { return nil }
            let attributeName = String(decoding: UnsafeBufferPointer(rebasing: s[attributeStart..<i]), as: UTF8.self)
            while i < s.count, Self.isSpace(s[i]) { i += 1 }
            guard i < s.count, s[i] == ascii("=") else {
                // An attribute without a value (HTML style): keep it, empty.
                attributes.append(SSMLAttribute(name: attributeName, value: ""))
                continue
            }
            i += 1
            while i < s.count, Self.isSpace(s[i]) { i += 1 }
            guard i < s.count else { return nil }
            let raw: Range<Int>
            if s[i] == ascii("\"") || s[i] == ascii("'") {
                let quote = s[i]
                guard
                    let end =
                        quote == ascii("\"")
                        ? terminators.doubleQuote.next(from: i + 1, count: s.count, where: { s[$0] == ascii("\"") })
                        : terminators.singleQuote.next(from: i + 1, count: s.count, where: { s[$0] == ascii("'") })
                else { return nil }
                raw = (i + 1)..<end
                i = end + 1
            } else {
                let valueStart = i
                while i < s.count, !Self.isSpace(s[i]), s[i] != ascii(">"),
                    s[i] != ascii("/") || (i + 1 < s.count && s[i + 1] != ascii(">"))
                {
                    i += 1
                }
                raw = valueStart..<i
            }
            attributes.append(SSMLAttribute(name: attributeName, value: Self.decodeEntities(in: s, raw)))
        }
    }

    /// Where the run of name scalars from `start` ends.
    private static func nameEnd(in s: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < s.count {
            let (scalar, length) = scalar(in: s, at: i)
            guard isNameScalar(scalar) else { break }
            i += length
        }
        return i
    }

    private static func decodeEntities(in s: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var result = ""
        var run = range.lowerBound
        var i = range.lowerBound
        while i < range.upperBound {
            if s[i] == ascii("&") {
                if i > run { result += String(decoding: UnsafeBufferPointer(rebasing: s[run..<i]), as: UTF8.self) }
                let (decoded, next) = entity(in: s, at: i, end: range.upperBound)
                result += decoded
                i = next
                run = next
            } else {
                i += 1
            }
        }
        if range.upperBound > run {
            result += String(decoding: UnsafeBufferPointer(rebasing: s[run..<range.upperBound]), as: UTF8.self)
        }
        return result
    }

    /// Decodes the entity at `&` (looking no further than `end`); an unknown or unterminated one
    /// is kept as written. Its name is at most 11 scalars, as when the reader counted scalars.
    private static func entity(in s: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) -> (String, Int) {
        var i = start + 1
        var scalars = 1
        while i < end, scalars <= 12, s[i] != ascii(";"), s[i] != ascii("&"), !isSpace(s[i]), s[i] != ascii("<") {
            i += scalar(in: s, at: i).length
            scalars += 1
        }
        guard i < end, s[i] == ascii(";") else { return ("&", start + 1) }
        let body = String(decoding: UnsafeBufferPointer(rebasing: s[(start + 1)..<i]), as: UTF8.self)
        let next = i + 1
        switch body {
        case "lt": return ("<", next)
        case "gt": return (">", next)
        case "amp": return ("&", next)
        case "quot": return ("\"", next)
        case "apos": return ("'", next)
        case "nbsp": return ("\u{A0}", next)
        default: break
        }
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value: UInt32?
            if digits.first == "x" || digits.first == "X" {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
            if let value, value != 0, let scalar = Unicode.Scalar(value) {
                return (String(Character(scalar)), next)
            }
        }
        return ("&", start + 1)
    }

    private static func matches(_ s: UnsafeBufferPointer<UInt8>, at index: Int, _ literal: StaticString) -> Bool {
        var i = index
        for byte in UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount) {
            guard i < s.count, s[i] == byte else { return false }
            i += 1
        }
        return true
    }

    /// The scalar whose UTF-8 starts at `index` of valid UTF-8, and its length in bytes.
    static func scalar(in s: UnsafeBufferPointer<UInt8>, at index: Int) -> (scalar: Unicode.Scalar, length: Int) {
        let lead = UInt32(s[index])
        func next(_ offset: Int) -> UInt32 { index + offset < s.count ? UInt32(s[index + offset] & 0x3F) : 0 }
        let value: UInt32
        let length: Int
        switch lead {
        case ..<0x80: (value, length) = (lead, 1)
        case ..<0xC0: (value, length) = (0xFFFD, 1)  // a continuation byte: never at a boundary
        case ..<0xE0: (value, length) = ((lead & 0x1F) << 6 | next(1), 2)
        case ..<0xF0: (value, length) = ((lead & 0x0F) << 12 | next(1) << 6 | next(2), 3)
        default: (value, length) = ((lead & 0x07) << 18 | next(1) << 12 | next(2) << 6 | next(3), 4)
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    /// The next occurrence of each terminator markup looks for, remembered over one document.
    ///
    /// A `<` that starts no markup (an unclosed comment, say) is read as text and reading goes on at
    /// the next byte, where the next `<` may search the same rest of the document again: without
    /// this memory, a megabyte of `<!--` took minutes (quadratic); with it, each byte is searched
    /// at most once per terminator.
    private struct Terminators {
        var commentEnd = Occurrence()
        var cdataEnd = Occurrence()
        var instructionEnd = Occurrence()
        var declarationStop = Occurrence()
        var subsetEnd = Occurrence()
        var doubleQuote = Occurrence()
        var singleQuote = Occurrence()
    }

    /// The last search for one terminator: started at `from`, found first at `found` (nil: nowhere
    /// after `from`). Any search starting in `from...found` has the same answer.
    private struct Occurrence {
        var from = Int.max
        var found: Int?

        mutating func next(from index: Int, count: Int, where isAt: (Int) -> Bool) -> Int? {
            if index >= from, index <= found ?? Int.max { return found }
            var i = index
            while i < count, !isAt(i) { i += 1 }
            from = index
            found = i < count ? i : nil
            return found
        }
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == ascii(" ") || byte == ascii("\t") || byte == ascii("\n") || byte == ascii("\r")
    }

    // Markup names are nearly always ASCII; the Unicode property lookups cost a table search per
    // scalar, which was the largest single cost of reading a short SSML text.
    private static func isNameStartScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value | 0x20
            return (value >= 0x61 && value <= 0x7A) || scalar == "_" || scalar == ":"
        }
        return scalar.properties.isAlphabetic
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return isNameStartScalar(scalar) || (scalar >= "0" && scalar <= "9") || scalar == "-" || scalar == "."
        }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
}

/// The byte of an ASCII character.
@inline(__always)
func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(truncatingIfNeeded: character.value) }
