/// Writes ``JSONValue``s as JSON text (RFC 8259) that ``JSONReader`` reads back equal.
public enum JSONWriter {
    /// `value` on one line, without spaces: members in their order, numbers as their literals,
    /// strings escaped by ``quoted(_:)``.
    public static func text(of value: JSONValue) -> String {
        var text = ""
        write(value, to: &text)
        return text
    }

    /// `text` as a JSON string literal: quotes, backslashes and every control character escaped
    /// (`\n`, `\r`, `\t` by name, the rest as `\u001F`), so that it stays on one line; everything
    /// else as it is, in UTF-8.
    public static func quoted(_ text: String) -> String {
        var quoted = ""
        appendQuoted(text, to: &quoted)
        return quoted
    }

    private static func write(_ value: JSONValue, to text: inout String) {
        switch value.kind {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let number): text += number.literal
        case .string(let string): appendQuoted(string, to: &text)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                write(element, to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { text += "," }
                appendQuoted(member.key, to: &text)
                text += ":"
                write(member.value, to: &text)
            }
            text += "}"
        }
    }

    private static func appendQuoted(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
