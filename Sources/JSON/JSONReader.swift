/// Reads JSON text (RFC 8259) into ``JSONValue``s that know their lines.
public enum JSONReader {
    /// How deeply arrays and objects may nest: deeper input is refused rather than risking the stack.
    public static let maximumDepth = 256

    /// The one value `text` holds (a leading byte order mark is skipped).
    public static func value(of text: String) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8))
        return try parser.document()
    }
}

/// Why a text is not JSON, and where.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// 1-based; the column counts characters.
    public var line: Int
    public var column: Int

    public init(message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String { "\(message) (line \(line), column \(column))" }
}

/// A recursive-descent reader over UTF-8 bytes. The bytes come from a `String`, so they are valid
/// UTF-8 and any slice between two ASCII bytes decodes as it was.
private struct JSONParser {
    let bytes: [UInt8]
    var position = 0
    var line = 1
    var lineStart = 0
    var depth = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            position = 3
            lineStart = 3
        }
    }

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        let value = try parseValue()
        skipWhitespace()
        guard position == bytes.count else { throw expected("the end of the text after the value") }
        return value
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                position += 1
            case UInt8(ascii: "\n"):
                position += 1
                line += 1
                lineStart = position
            default:
                return
            }
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let line = self.line
        switch current ?? 0 {
        case UInt8(ascii: "{"): return JSONValue(.object(try parseObject()), line: line)
        case UInt8(ascii: "["): return JSONValue(.array(try parseArray()), line: line)
        case UInt8(ascii: "\""): return JSONValue(.string(try parseString()), line: line)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONValue(try parseNumber(), line: line)
        default:
            for (word, kind) in [("true", JSONValue.Kind.bool(true)), ("false", .bool(false)), ("null", .null)]
            where bytes[position...].starts(with: word.utf8) {
                position += word.utf8.count
                return JSONValue(kind, line: line)
            }
            throw expected("a value")
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= JSONReader.maximumDepth else {
            throw failure("arrays and objects nested more than \(JSONReader.maximumDepth) deep")
        }
        position += 1
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> [JSONValue.Member] {
        try enter()
        defer { depth -= 1 }
        var members: [JSONValue.Member] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return members
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw expected("a key in double quotes") }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw expected("':' after the key") }
            position += 1
            members.append(JSONValue.Member(key: key, value: try parseValue()))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return members
            default: throw expected("',' or '}' after a member of the object")
            }
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> [JSONValue] {
        try enter()
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return elements
            default: throw expected("',' or ']' after an element of the array")
            }
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        position += 1
        var text = ""
        var runStart = position
        while true {
            guard let byte = current else { throw expected("'\"' to end the string") }
            switch byte {
            case UInt8(ascii: "\""):
                text += String(decoding: bytes[runStart..<position], as: UTF8.self)
                position += 1
                return text
            case UInt8(ascii: "\\"):
                text += String(decoding: bytes[runStart..<position], as: UTF8.self)
                text.unicodeScalars.append(try parseEscape())
                runStart = position
            case 0..<0x20:
                throw failure(
                    "a control character (U+\(Self.hex(UInt32(byte)))) in a string; write it as an escape such as \\n")
            default:
                position += 1
            }
        }
    }

    /// The character a backslash sequence stands for; a surrogate pair counts as one.
    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        position += 1
        guard let byte = current else { throw expected("an escape after '\\'") }
        let simple: [UInt8: Unicode.Scalar] = [
            UInt8(ascii: "\""): "\"", UInt8(ascii: "\\"): "\\", UInt8(ascii: "/"): "/", UInt8(ascii: "b"): "\u{8}",
            UInt8(ascii: "f"): "\u{C}", UInt8(ascii: "n"): "\n", UInt8(ascii: "r"): "\r", UInt8(ascii: "t"): "\t",
        ]
        if let scalar = simple[byte] {
            position += 1
            return scalar
        }
        guard byte == UInt8(ascii: "u") else {
            throw expected("an escape (one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u) after '\\'")
        }
        let start = position - 1
        let high = try parseHex()
        switch high {
        case 0xD800...0xDBFF:
            let low: UInt32
            if bytes[position...].starts(with: "\\u".utf8) {
                position += 1
                low = try parseHex()
            } else {
                low = 0
            }
            guard (0xDC00...0xDFFF).contains(low) else {
                throw failure("the surrogate \\u\(Self.hex(high)) without a low surrogate after it", at: start)
            }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        case 0xDC00...0xDFFF:
            throw failure("the low surrogate \\u\(Self.hex(high)) without a high surrogate before it", at: start)
        default:
            return Unicode.Scalar(high)!
        }
    }

    /// The four hex digits after `\u` (the position is on the `u`).
    private mutating func parseHex() throws(JSONSyntaxError) -> UInt32 {
        position += 1
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexDigit(byte) else { throw expected("4 hex digits after \\u") }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue.Kind {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
        } else {
            try digits()
        }
        if current == UInt8(ascii: ".") {
            position += 1
            try digits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            try digits()
        }
        let literal = String(decoding: bytes[start..<position], as: UTF8.self)
        // Beyond Double's range Swift gives nil or an infinity; either way a range check refuses
        // it, and the literal keeps what was written.
        return .number(JSONNumber(value: Double(literal) ?? .infinity, literal: literal))
    }

    private mutating func digits() throws(JSONSyntaxError) {
        guard let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
            throw expected("a digit")
        }
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
    }

    private func expected(_ what: String) -> JSONSyntaxError {
        failure("expected \(what), found \(found)")
    }

    private func failure(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let offset = offset ?? position
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        return JSONSyntaxError(message: message, line: line, column: column)
    }

    /// What stands at the position: a word as a whole (`soon`, `tru`), else one character.
    private var found: String {
        guard position < bytes.count else { return "the end of the text" }
        var end = position + 1
        let isWordByte = { (byte: UInt8) in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        if isWordByte(bytes[position]) {
            while end < bytes.count, isWordByte(bytes[end]), end - position < 20 { end += 1 }
        } else {
            // The whole character: its continuation bytes (10xxxxxx) come with it.
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        }
        let text = String(decoding: bytes[position..<end], as: UTF8.self)
        if let scalar = text.unicodeScalars.first, scalar.value < 0x20 {
            return scalar == "\n" ? "the end of the line" : "U+\(Self.hex(scalar.value))"
        }
        return "'\(text)'"
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
