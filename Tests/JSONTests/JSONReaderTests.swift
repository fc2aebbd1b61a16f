import JSON
import TestSupport
import Testing

/// The JSON reader against RFC 8259: values, escapes, nesting, lines, and each syntax error.
@Suite struct JSONReaderTests {
    @Test func `values keep the line they start on`() throws {
        let value = try JSONReader.value(of: "{\n  \"a\": [1,\n    true, null],\n  \"b\":\n\n  \"x\"\n}")
        let expected = JSONValue(
            .object([
                JSONValue.Member(
                    key: "a",
                    value: JSONValue(
                        .array([
                            JSONValue(.number(JSONNumber(1)), line: 2), JSONValue(.bool(true), line: 3),
                            JSONValue(.null, line: 3),
                        ]), line: 2)),
                JSONValue.Member(key: "b", value: JSONValue(.string("x"), line: 6)),
            ]), line: 1)
        #expect(value == expected)
    }

    @Test(arguments: [
        (#""plain""#, "plain"),
        (#""\" \\ \/ \b \f \n \r \t""#, "\" \\ / \u{8} \u{C} \n \r \t"),
        (#""\u0041\u00e9\u65E5""#, "Aé日"),
        (#""\uD83D\uDE00 and \ud834\udd1e""#, "😀 and 𝄞"),
        (#""日本語のテキスト、そのまま""#, "日本語のテキスト、そのまま"),
        (#""e\u0301""#, "e\u{301}"),
        (#""""#, ""),
    ])
    func `strings decode their escapes and surrogate pairs`(json: String, text: String) throws {
        #expect(try JSONReader.value(of: json).kind == .string(text))
    }

    @Test(arguments: [
        ("0", 0.0), ("-0", -0.0), ("12", 12), ("-3.25", -3.25), ("1e3", 1000), ("2.5E-1", 0.25), ("1E+2", 100),
    ])
    func `numbers follow the RFC grammar`(json: String, number: Double) throws {
        let value = try JSONReader.value(of: " \(json) ")
        #expect(value.number == number && value.number?.sign == number.sign)
        #expect(value.kind == .number(try #require(JSONNumber(literal: json))))
    }

    @Test func `arrays and objects nest up to the limit, and no deeper`() throws {
        let depth = JSONReader.maximumDepth
        var value = try JSONReader.value(
            of: String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        for _ in 1..<depth {
            guard case .array(let elements) = value.kind, elements.count == 1 else {
                Issue.record("not nested")
                return
            }
            value = elements[0]
        }
        #expect(value.kind == .array([]))
        #expect(
            syntaxError(String(repeating: "{\"a\":", count: depth) + "{}")
                == "arrays and objects nested more than 256 deep (line 1, column \(5 * depth + 1))")
    }

    @Test func `a byte order mark before the value is skipped`() throws {
        #expect(
            try JSONReader.value(of: "\u{FEFF}{\"a\": 1}").kind
                == .object([JSONValue.Member(key: "a", value: JSONValue(1))]))
    }

    @Test(arguments: [
        ("", "expected a value, found the end of the text (line 1, column 1)"),
        ("  \n ", "expected a value, found the end of the text (line 2, column 2)"),
        ("{\"seconds\": soon}", "expected a value, found 'soon' (line 1, column 13)"),
        ("[tru]", "expected a value, found 'tru' (line 1, column 2)"),
        ("{\"a\": 1,}", "expected a key in double quotes, found '}' (line 1, column 9)"),
        ("{a: 1}", "expected a key in double quotes, found 'a' (line 1, column 2)"),
        ("{\"a\" 1}", "expected ':' after the key, found '1' (line 1, column 6)"),
        ("{\n\"a\": 1\n\"b\": 2}", "expected ',' or '}' after a member of the object, found '\"' (line 3, column 1)"),
        ("[1 2]", "expected ',' or ']' after an element of the array, found '2' (line 1, column 4)"),
        ("[1,]", "expected a value, found ']' (line 1, column 4)"),
        ("[1] [2]", "expected the end of the text after the value, found '[' (line 1, column 5)"),
        ("\"open", "expected '\"' to end the string, found the end of the text (line 1, column 6)"),
        ("\"a\nb\"", "a control character (U+000A) in a string; write it as an escape such as \\n (line 1, column 3)"),
        (
            "\"\\x\"",
            "expected an escape (one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u) after '\\', found 'x' (line 1, column 3)"
        ),
        ("\"\\u12G4\"", "expected 4 hex digits after \\u, found 'G4' (line 1, column 6)"),
        ("\"日本\\uD83D\"", "the surrogate \\uD83D without a low surrogate after it (line 1, column 4)"),
        ("\"\\uDE00\"", "the low surrogate \\uDE00 without a high surrogate before it (line 1, column 2)"),
        ("\"\\uD83D\\u0041\"", "the surrogate \\uD83D without a low surrogate after it (line 1, column 2)"),
        ("-", "expected a digit, found the end of the text (line 1, column 2)"),
        ("1.", "expected a digit, found the end of the text (line 1, column 3)"),
        ("1.e5", "expected a digit, found 'e5' (line 1, column 3)"),
        ("01", "expected the end of the text after the value, found '1' (line 1, column 2)"),
        ("{\"テキスト\": ＊}", "expected a value, found '＊' (line 1, column 10)"),
        ("NaN", "expected a value, found 'NaN' (line 1, column 1)"),
    ])
    func `a syntax error says what was expected, what was found, and where`(json: String, message: String) {
        #expect(syntaxError(json) == message)
    }

    @Test func `random documents read back as the values they were written from`() throws {
        var random = SeededGenerator(seed: 14)
        for _ in 0..<300 {
            var line = 1
            let value = Self.randomValue(&random, depth: 0)
            let text = Self.write(value, &random, line: &line)
            #expect(try JSONReader.value(of: text) == Self.withLines(value, text: text), "\(text)")
        }
    }

    // MARK: A writer to check the reader against

    /// Random values; lines are filled in by ``write``.
    private static func randomValue(_ random: inout SeededGenerator, depth: Int) -> JSONValue {
        let kind: JSONValue.Kind
        switch random.next(depth > 4 ? 4 : 6) {
        case 0: kind = .null
        case 1: kind = .bool(random.next(2) == 0)
        case 2:
            let literal = ["0", "-1", "3.5", "1e2", "-0.25E-3", "123456789"][random.next(6)]
            kind = .number(JSONNumber(literal: literal)!)
        case 3:
            let pieces = ["a", "日本", "\"", "\\", "\n", "\u{1}", "😀", " ", "é", "/"]
            kind = .string((0..<random.next(6)).map { _ in pieces[random.next(pieces.count)] }.joined())
        case 4: kind = .array((0..<random.next(4)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            kind = .object(
                (0..<random.next(4)).map { index in
                    JSONValue.Member(key: "k\(index)", value: randomValue(&random, depth: depth + 1))
                })
        }
        return JSONValue(kind, line: 0)
    }

    /// JSON text for `value`, with line breaks and escapes chosen at random.
    private static func write(_ value: JSONValue, _ random: inout SeededGenerator, line: inout Int) -> String {
        var text = ""
        func space() {
            if random.next(3) == 0 {
                text += "\n"
                line += 1
            } else {
                text += [" ", "\t", "", "\r\n"][random.next(4)]
                if text.hasSuffix("\r\n") { line += 1 }
            }
        }
        switch value.kind {
        case .null: text += "null"
        case .bool(let flag): text += "\(flag)"
        case .number(let number): text += number.literal
        case .string(let string): text += escaped(string, &random)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                space()
                text += write(element, &random, line: &line)
                space()
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { text += "," }
                space()
                text += escaped(member.key, &random) + ":"
                space()
                text += write(member.value, &random, line: &line)
            }
            space()
            text += "}"
        }
        return text
    }

    private static func escaped(_ string: String, _ random: inout SeededGenerator) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case _ where scalar.value < 0x20 || random.next(4) == 0:
                for unit in scalar.utf16 {
                    let hex = String(unit, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }

    /// `value` with the lines a reader must find in `text`: counted from the text itself.
    private static func withLines(_ value: JSONValue, text: String) -> JSONValue {
        var reference = ReferenceLines(text: Array(text.utf8))
        return reference.value(value)
    }

    private func syntaxError(_ json: String) -> String {
        do {
            _ = try JSONReader.value(of: json)
            return "no error"
        } catch {
            return error.description
        }
    }
}

/// Finds each value's line by walking the text alongside the value (the writer's shapes only).
private struct ReferenceLines {
    let text: [UInt8]
    var position = 0
    var line = 1

    init(text: [UInt8]) {
        self.text = text
    }

    mutating func skip() {
        while position < text.count,
            [0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: ","), UInt8(ascii: ":")].contains(text[position])
        {
            if text[position] == 0x0A { line += 1 }
            position += 1
        }
    }

    mutating func skipString() {
        position += 1
        while text[position] != UInt8(ascii: "\"") { position += text[position] == UInt8(ascii: "\\") ? 2 : 1 }
        position += 1
    }

    mutating func value(_ value: JSONValue) -> JSONValue {
        skip()
        let start = line
        switch value.kind {
        case .array(let elements):
            position += 1
            let read = elements.map { self.value($0) }
            skip()
            position += 1
            return JSONValue(.array(read), line: start)
        case .object(let members):
            position += 1
            let read = members.map { member in
                skip()
                skipString()
                return JSONValue.Member(key: member.key, value: self.value(member.value))
            }
            skip()
            position += 1
            return JSONValue(.object(read), line: start)
        case .string:
            skipString()
        case .null, .bool, .number:
            while position < text.count,
                ![0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(
                    text[position])
            {
                position += 1
            }
        }
        return JSONValue(value.kind, line: start)
    }
}

extension SeededGenerator {
    fileprivate mutating func next(_ bound: Int) -> Int {
        Int(next(upperBound: UInt(bound)))
    }
}
