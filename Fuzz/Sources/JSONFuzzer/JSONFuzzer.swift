import JSON

/// Reads arbitrary text as JSON: the reader must never trap, and a syntax error must point into the
/// text; a value read is written on one line that reads back as the same value (on line 1), and
/// writing that again gives the same text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lineCount = text.utf8.count { $0 == UInt8(ascii: "\n") } + 1
    let value: JSONValue
    do {
        value = try JSONReader.value(of: text)
    } catch {
        precondition((1...lineCount).contains(error.line) && error.column >= 1, "\(error)")
        return 0
    }
    let written = JSONWriter.text(of: value)
    precondition(!written.utf8.contains(UInt8(ascii: "\n")) && !written.utf8.contains(UInt8(ascii: "\r")), written)
    let again: JSONValue
    do {
        again = try JSONReader.value(of: written)
    } catch {
        preconditionFailure("\(error) in \(written)")
    }
    precondition(again == onLineOne(value), written)
    precondition(JSONWriter.text(of: again) == written, written)
    return 0
}

/// `value` as code makes it: every part on line 1.
private func onLineOne(_ value: JSONValue) -> JSONValue {
    switch value.kind {
    case .array(let elements): JSONValue(.array(elements.map(onLineOne)))
    case .object(let members): JSONValue(.object(members.map { .init(key: $0.key, value: onLineOne($0.value)) }))
    default: JSONValue(value.kind)
    }
}
