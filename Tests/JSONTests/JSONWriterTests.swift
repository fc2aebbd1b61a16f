import JSON
import TestSupport
import Testing

/// The JSON writer: escapes, numbers, nesting, and text that the reader reads back as the value written.
@Suite struct JSONWriterTests {
    @Test(arguments: [
        ("plain", #""plain""#),
        ("", #""""#),
        ("say \"hi\"", #""say \"hi\"""#),
        (#"C:\path\"#, #""C:\\path\\""#),
        ("two\nlines\r\n\tand a tab", #""two\nlines\r\n\tand a tab""#),
        ("\u{0}\u{1}\u{8}\u{C}\u{1B}\u{1F}", #""\u0000\u0001\u0008\u000C\u001B\u001F""#),
        // Only what JSON requires is escaped: DEL, the slash and every other character stay as they are.
        ("\u{7F} / ", "\"\u{7F} / \""),
        ("日本語 é 😀 👍🏽 \u{2028}", "\"日本語 é 😀 👍🏽 \u{2028}\""),
    ])
    func `strings escape quotes, backslashes and every control character, and nothing else`(
        text: String, json: String
    ) throws {
        #expect(JSONWriter.quoted(text) == json)
        #expect(JSONWriter.text(of: JSONValue(text)) == json)
        #expect(try JSONReader.value(of: json).kind == .string(text))
    }

    @Test func `objects keep their members in order, duplicates too, and nest`() {
        let value: JSONValue = [
            "b": [1, ["c": [], "d": [:]], [[true, false]]],
            "a": .null,
            "b": "again",
            "quote\"key": -7,
        ]
        #expect(
            JSONWriter.text(of: value)
                == #"{"b":[1,{"c":[],"d":{}},[[true,false]]],"a":null,"b":"again","quote\"key":-7}"#)
        #expect(JSONWriter.text(of: []) == "[]" && JSONWriter.text(of: [:]) == "{}")
    }

    @Test func `integers are written exactly, whatever their size`() {
        #expect(JSONWriter.text(of: JSONValue(Int64.max)) == "9223372036854775807")
        #expect(JSONWriter.text(of: JSONValue(Int64.min)) == "-9223372036854775808")
        #expect(JSONWriter.text(of: JSONValue(UInt64.max)) == "18446744073709551615")
        #expect(JSONWriter.text(of: JSONValue(Int32(-42))) == "-42")
        #expect(JSONValue(UInt64.max).number == 18_446_744_073_709_551_615.0)
    }

    @Test(arguments: [
        (0.1, "0.1"), (3.0, "3.0"), (-0.0, "-0.0"), (1e-5, "1e-05"), (1e16, "1e+16"), (Double.leastNonzeroMagnitude, "5e-324"),
        (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
    ])
    func `a Double is written as its shortest literal, which reads back to the same bits`(
        number: Double, json: String
    ) throws {
        let value = JSONValue(try #require(JSONNumber(number)))
        #expect(JSONWriter.text(of: value) == json)
        #expect(try JSONReader.value(of: json).number?.bitPattern == number.bitPattern)
    }

    @Test func `random Doubles read back to the same bits`() throws {
        var random = SeededGenerator(seed: 34)
        var count = 0
        while count < 2000 {
            let number = Double(bitPattern: random.next())
            guard number.isFinite else { continue }
            count += 1
            let text = JSONWriter.text(of: JSONValue(try #require(JSONNumber(number))))
            #expect(try JSONReader.value(of: text).number?.bitPattern == number.bitPattern, "\(text)")
        }
    }

    @Test func `JSON has no NaN or infinity: no number is made of them`() {
        #expect(JSONNumber(Double.nan) == nil)
        #expect(JSONNumber(Double.infinity) == nil)
        #expect(JSONNumber(-Double.infinity) == nil)
        #expect(JSONNumber(Double.signalingNaN) == nil)
    }

    @Test(arguments: ["NaN", "Infinity", "-Infinity", "inf", "+1", ".5", "5.", "01", "-", "1e", "0x10", " 1", "1 ", "", "1,2"])
    func `a literal that is not a JSON number makes no number`(literal: String) {
        #expect(JSONNumber(literal: literal) == nil)
    }

    @Test func `a number is written as it was read: digits kept, and beyond Double too`() throws {
        for literal in ["0.250", "1E+2", "-0", "1e400", "-1e400", "123456789012345678901234567890"] {
            let read = try JSONReader.value(of: "[\(literal)]")
            #expect(JSONWriter.text(of: read) == "[\(literal)]")
            #expect(try #require(JSONNumber(literal: literal)).literal == literal)
        }
        #expect(try JSONReader.value(of: "1e400").number == .infinity)
    }

    @Test func `random values read back as the values written, all on one line`() throws {
        var random = SeededGenerator(seed: 2)
        for _ in 0..<500 {
            let value = Self.randomValue(&random, depth: 0)
            let text = JSONWriter.text(of: value)
            #expect(!text.contains("\n") && !text.contains("\r"))
            #expect(try JSONReader.value(of: text) == value, "\(text)")
        }
    }

    @Test func `text read, written and read again is the same value, on line 1`() throws {
        let text = "{\n  \"a\": [1.50,\n    \"x\\u0041\\n\", null],\n  \"b\":\n\n  {\"c\": -0}\n}\n"
        let written = JSONWriter.text(of: try JSONReader.value(of: text))
        #expect(written == #"{"a":[1.50,"xA\n",null],"b":{"c":-0}}"#)
        #expect(JSONWriter.text(of: try JSONReader.value(of: written)) == written)
    }

    /// Values as code makes them (every line 1): strings of any characters, numbers of any kind.
    private static func randomValue(_ random: inout SeededGenerator, depth: Int) -> JSONValue {
        switch random.bounded(depth > 5 ? 4 : 6) {
        case 0: return .null
        case 1: return JSONValue(random.bounded(2) == 0)
        case 2:
            switch random.bounded(3) {
            case 0: return JSONValue(Int64(bitPattern: random.next()))
            case 1: return JSONValue(JSONNumber(Double(random.bounded(20_001)) / 100 - 100)!)
            default: return JSONValue(JSONNumber(literal: ["0", "-0.0", "1E+2", "2.50e-3", "1e400"][random.bounded(5)])!)
            }
        case 3:
            let pieces = ["a", "日本", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "😀", " ", "é", "/", "\u{2028}"]
            return JSONValue((0..<random.bounded(8)).map { _ in pieces[random.bounded(pieces.count)] }.joined())
        case 4: return JSONValue((0..<random.bounded(4)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            let members = (0..<random.bounded(4)).map { _ in
                JSONValue.Member(key: ["k", "", "\"", "日\n"][random.bounded(4)], value: randomValue(&random, depth: depth + 1))
            }
            return JSONValue(.object(members))
        }
    }
}

extension SeededGenerator {
    fileprivate mutating func bounded(_ bound: Int) -> Int {
        Int(next(upperBound: UInt(bound)))
    }
}
