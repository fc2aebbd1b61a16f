/// A JSON value (RFC 8259) and the line it starts on, so that a problem with it can be pointed at.
public struct JSONValue: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case null
        case bool(Bool)
        /// The value, and the number as written (for messages: `1e400` is not `inf`).
        case number(Double, literal: String)
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
    /// 1-based.
    public var line: Int

    public init(_ kind: Kind, line: Int) {
        self.kind = kind
        self.line = line
    }

    /// The value as a message quotes it: short values as written, containers by what they are.
    public var quoted: String {
        switch kind {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(_, let literal): literal
        case .string(let value): Self.quote(value.count > 40 ? String(value.prefix(40)) + "…" : value)
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// `text` as a JSON string literal.
    public static func quote(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
