/// A JSON value (RFC 8259) and the line it starts on, so that a problem with it can be pointed at.
public struct JSONValue: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case null
        case bool(Bool)
        case number(JSONNumber)
        case string(String)
        case array([JSONValue])
        /// The members in the order written; a key may repeat (RFC 8259 allows it, we report it).
        case object([Member])
    }

    /// One `"key": value` of an object.
    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    public var kind: Kind
    /// 1-based. A value made in code is on line 1, where ``JSONWriter`` puts all of it, so that
    /// what is written reads back equal.
    public var line: Int

    public init(_ kind: Kind, line: Int = 1) {
        self.kind = kind
        self.line = line
    }

    public static let null = JSONValue(.null)

    public init(_ flag: Bool) { self.init(.bool(flag)) }
    public init(_ number: JSONNumber) { self.init(.number(number)) }
    public init(_ number: some BinaryInteger) { self.init(.number(JSONNumber(number))) }
    public init(_ text: String) { self.init(.string(text)) }
    public init(_ elements: [JSONValue]) { self.init(.array(elements)) }

    /// The value of a number; nil for any other kind.
    public var number: Double? {
        if case .number(let number) = kind { number.value } else { nil }
    }

    /// The value as a message quotes it: short values as written, containers by what they are.
    public var quoted: String {
        switch kind {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let number): number.literal
        case .string(let value): JSONWriter.quoted(value.count > 40 ? String(value.prefix(40)) + "…" : value)
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// An object in code is written as a dictionary literal, its members in the literal's order.
extension JSONValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral members: (String, JSONValue)...) {
        self.init(.object(members.map { Member(key: $0.0, value: $0.1) }))
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self.init(.array(elements)) }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral text: String) { self.init(.string(text)) }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral flag: Bool) { self.init(.bool(flag)) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral number: Int) { self.init(number) }
}

/// A JSON number: its value, and the number as written, which is what is written back (`0.250`
/// stays `0.250`; `1e400`, beyond Double, reads as infinity and is written as `1e400`). JSON has no
/// NaN or infinity, so none can be made from a Double: the writer never meets a number it cannot
/// write.
public struct JSONNumber: Sendable, Equatable, CustomStringConvertible {
    public let value: Double
    public let literal: String

    /// The number `value` is, written as Swift writes a Double (`3.0`, `0.1`, `1e-05`); nil for
    /// NaN and the infinities.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self.init(value: value, literal: "\(value)")
    }

    /// An integer, written exactly whatever its size (its value is the nearest Double).
    public init(_ value: some BinaryInteger) {
        self.init(value: Double(value), literal: "\(value)")
    }

    /// The number `literal` is, when it is one by JSON's grammar (`-0.25E-3`; not `+1`, `.5`, `01`
    /// or `NaN`).
    public init?(literal: String) {
        guard literal.utf8.first.map({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) }) == true,
            case .number(let number)? = (try? JSONReader.value(of: literal))?.kind, number.literal == literal
        else { return nil }
        self = number
    }

    /// For the reader, whose literals follow the grammar.
    init(value: Double, literal: String) {
        self.value = value
        self.literal = literal
    }

    public var description: String { literal }
}
