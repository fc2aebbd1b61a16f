import SSML

/// The SSML reader as it was before it read bytes one token at a time (Utter 0.x, issue 32): it
/// turned the whole document into an array of Unicode scalars first. Kept here as the reference
/// the byte reader must agree with, token for token.
enum ScalarReference {
    /// The tokens of `source`, adjacent text merged.
    public static func tokens(of source: String) -> [SSMLToken] {
        var tokens: [SSMLToken] = []
        var text = ""
        let scalars = Array(source.unicodeScalars)
        var index = 0
        var terminators = Terminators()

        func flushText() {
            if !text.isEmpty {
                tokens.append(.text(text))
                text = ""
            }
        }

        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<" {
                if let (token, next) = tag(in: scalars, at: index, terminators: &terminators) {
                    flushText()
                    if let token { tokens.append(token) }
                    index = next
                    continue
                }
                text.unicodeScalars.append(scalar)
                index += 1
            } else if scalar == "&" {
                let (decoded, next) = entity(in: scalars, at: index)
                text += decoded
                index = next
            } else {
                text.unicodeScalars.append(scalar)
                index += 1
            }
        }
        flushText()
        return tokens
    }

    /// Parses markup starting at `<`; nil when it is no markup (then `<` is text). A nil token
    /// with an index means markup that is skipped (comment, declaration, instruction).
    private static func tag(
        in s: [Unicode.Scalar], at start: Int, terminators: inout Terminators
    ) -> (SSMLToken?, Int)? {
        var i = start + 1
        guard i < s.count else { return nil }
        if s[i] == "!" {
            if matches(s, at: i, "!--") {
                guard let end = terminators.commentEnd.next(in: s, from: i + 3, where: { matches(s, at: $0, "-->") })
                else { return nil }
                return (nil, end + 3)
            }
            if matches(s, at: i, "![CDATA[") {
                guard let end = terminators.cdataEnd.next(in: s, from: i + 8, where: { matches(s, at: $0, "]]>") })
                else { return nil }
                return (.text(String(String.UnicodeScalarView(s[(i + 8)..<end]))), end + 3)
            }
            // DOCTYPE and other declarations: up to the first `>`, or, with an internal subset,
            // up to the `]` and `>` that close it (a `>` inside the subset ends nothing).
            guard let stop = terminators.declarationStop.next(in: s, from: i, where: { s[$0] == ">" || s[$0] == "[" })
            else { return nil }
            if s[stop] == ">" { return (nil, stop + 1) }
            func afterSpaces(_ index: Int) -> Int {
                var index = index
                while index < s.count, isSpace(s[index]) { index += 1 }
                return index
            }
            guard
                let close = terminators.subsetEnd.next(
                    in: s, from: stop + 1,
                    where: { s[$0] == "]" && afterSpaces($0 + 1) < s.count && s[afterSpaces($0 + 1)] == ">" })
            else { return nil }
            return (nil, afterSpaces(close + 1) + 1)
        }
        if s[i] == "?" {
            guard let end = terminators.instructionEnd.next(in: s, from: i + 1, where: { matches(s, at: $0, "?>") })
            else { return nil }
            return (nil, end + 2)
        }
        var isEnd = false
        if s[i] == "/" {
            isEnd = true
            i += 1
        }
        let nameStart = i
        while i < s.count, isNameScalar(s[i]) { i += 1 }
        guard i > nameStart, isNameStartScalar(s[nameStart]) else { return nil }
        let name = String(String.UnicodeScalarView(s[nameStart..<i]))
        if isEnd {
            while i < s.count, isSpace(s[i]) { i += 1 }
            guard i < s.count, s[i] == ">" else { return nil }
            return (.endTag(name: name), i + 1)
        }
        var attributes: [SSMLAttribute] = []
        while true {
            while i < s.count, isSpace(s[i]) { i += 1 }
            guard i < s.count else { return nil }
            if s[i] == ">" {
                return (.startTag(name: name, attributes: attributes, isSelfClosing: false), i + 1)
            }
            if s[i] == "/" {
                guard i + 1 < s.count, s[i + 1] == ">" else { return nil }
                return (.startTag(name: name, attributes: attributes, isSelfClosing: true), i + 2)
            }
            let attributeStart = i
            while i < s.count, isNameScalar(s[i]) { i += 1 }
            guard i > attributeStart else { return nil }
            let attributeName = String(String.UnicodeScalarView(s[attributeStart..<i]))
            while i < s.count, isSpace(s[i]) { i += 1 }
            guard i < s.count, s[i] == "=" else {
                // An attribute without a value (HTML style): keep it, empty.
                attributes.append(SSMLAttribute(name: attributeName, value: ""))
                continue
            }
            i += 1
            while i < s.count, isSpace(s[i]) { i += 1 }
            guard i < s.count else { return nil }
            var raw: ArraySlice<Unicode.Scalar>
            if s[i] == "\"" || s[i] == "'" {
                let quote = s[i]
                guard
                    let end =
                        quote == "\""
                        ? terminators.doubleQuote.next(in: s, from: i + 1, where: { s[$0] == "\"" })
                        : terminators.singleQuote.next(in: s, from: i + 1, where: { s[$0] == "'" })
                else { return nil }
                raw = s[(i + 1)..<end]
                i = end + 1
            } else {
                let valueStart = i
                while i < s.count, !isSpace(s[i]), s[i] != ">", s[i] != "/" || (i + 1 < s.count && s[i + 1] != ">") {
                    i += 1
                }
                raw = s[valueStart..<i]
            }
            attributes.append(SSMLAttribute(name: attributeName, value: decodeEntities(Array(raw))))
        }
    }

    private static func decodeEntities(_ s: [Unicode.Scalar]) -> String {
        var result = ""
        var i = 0
        while i < s.count {
            if s[i] == "&" {
                let (decoded, next) = entity(in: s, at: i)
                result += decoded
                i = next
            } else {
                result.unicodeScalars.append(s[i])
                i += 1
            }
        }
        return result
    }

    /// Decodes the entity at `&`; an unknown or unterminated one is kept as written.
    private static func entity(in s: [Unicode.Scalar], at start: Int) -> (String, Int) {
        var i = start + 1
        while i < s.count, i - start <= 12, s[i] != ";", s[i] != "&", !isSpace(s[i]), s[i] != "<" { i += 1 }
        guard i < s.count, s[i] == ";" else { return ("&", start + 1) }
        let body = String(String.UnicodeScalarView(s[(start + 1)..<i]))
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

    private static func matches(_ s: [Unicode.Scalar], at index: Int, _ literal: String) -> Bool {
        var i = index
        for scalar in literal.unicodeScalars {
            guard i < s.count, s[i] == scalar else { return false }
            i += 1
        }
        return true
    }

    /// The next occurrence of each terminator markup looks for, remembered over one document.
    ///
    /// A `<` that starts no markup (an unclosed comment, say) is read as text and reading goes on at
    /// the next scalar, where the next `<` may search the same rest of the document again: without
    /// this memory, a megabyte of `<!--` took minutes (quadratic); with it, each scalar is
    /// searched at most once per terminator.
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

        mutating func next(in s: [Unicode.Scalar], from index: Int, where isAt: (Int) -> Bool) -> Int? {
            if index >= from, index <= found ?? Int.max { return found }
            var i = index
            while i < s.count, !isAt(i) { i += 1 }
            from = index
            found = i < s.count ? i : nil
            return found
        }
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
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
