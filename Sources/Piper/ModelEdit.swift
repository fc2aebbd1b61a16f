/// A small edit of an ONNX model's protobuf: the output of its `Ceil` node (each phoneme id's
/// length in frames, in Piper's VITS models) made one of the graph's outputs, so that a run
/// returns the durations with the samples. Only the bytes of the graph's length and one added
/// output change; everything else is copied as it is.
public enum ModelEdit {
    /// What `exposingDurations` found.
    public struct Result: Equatable, Sendable {
        /// The model to load: the edited one, or the input unchanged when nothing was to do.
        public var model: [UInt8]
        /// The name of the durations output; nil when the model has no single `Ceil` node.
        public var durationsOutput: String?
        /// The graph's inputs and outputs (after the edit), by name.
        public var inputs: [String]
        public var outputs: [String]
    }

    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// The bytes are not a protobuf ModelProto with one graph (corrupt or cut short).
        case malformed(String)

        public var description: String {
            switch self {
            case .malformed(let why): "not an ONNX model (\(why))"
            }
        }
    }

    /// At most this many bytes are added: the edit fits in a buffer with this much spare capacity.
    public static let growth = 64 + 1024

    /// The model with its `Ceil` node's output added to the graph's outputs.
    public static func exposingDurations(_ model: [UInt8], node: DurationsNode = .piper) -> Swift.Result<Result, Problem> {
        var edited = model
        return exposeDurations(in: &edited, node: node).map { found in
            Result(model: edited, durationsOutput: found.durationsOutput, inputs: found.inputs, outputs: found.outputs)
        }
    }

    /// What the edit found, the model left in its caller's buffer.
    public struct Found: Equatable, Sendable {
        public var durationsOutput: String?
        public var inputs: [String]
        public var outputs: [String]
    }

    /// The node whose output gives each id's frames.
    public enum DurationsNode: Equatable, Sendable {
        /// The graph's only node of this type (Piper: `Ceil`).
        case onlyOfType(String)
        /// The node of this name (Kokoro: `/encoder/Clip`, after `/encoder/Round`).
        case named(String)

        public static let piper = DurationsNode.onlyOfType("Ceil")
        public static let kokoro = DurationsNode.named("/encoder/Clip")
    }

    /// Edits `model` in place (a model of hundreds of megabytes is never held twice: with
    /// ``growth`` bytes of spare capacity it is not even moved); unchanged on failure.
    public static func exposeDurations(
        in model: inout [UInt8], node wanted: DurationsNode = .piper
    ) -> Swift.Result<Found, Problem> {
        var reader = ProtobufReader(bytes: model, range: 0..<model.count)
        var graphField: (start: Int, content: Range<Int>)?
        do {
            while let field = try reader.next() {
                guard field.number == 7, case .bytes(let content) = field.value else { continue }
                guard graphField == nil else { return .failure(.malformed("more than one graph")) }
                graphField = (field.start, content)
            }
        } catch {
            return .failure(error)
        }
        guard let graphField else { return .failure(.malformed("no graph")) }
        var graph = ProtobufReader(bytes: model, range: graphField.content)
        var ceilOutputs: [String] = []
        var inputs: [String] = []
        var outputs: [String] = []
        do {
            while let field = try graph.next() {
                guard case .bytes(let content) = field.value else { continue }
                switch field.number {
                case 1:
                    let node = try NodeFields(model, content)
                    let matches =
                        switch wanted {
                        case .onlyOfType(let type): node.opType == type
                        case .named(let name): node.name == name
                        }
                    if matches, let output = node.outputs.first { ceilOutputs.append(output) }
                case 11:
                    inputs.append(try name(of: model, content))
                case 12:
                    outputs.append(try name(of: model, content))
                default:
                    break
                }
            }
        } catch {
            return .failure(error)
        }
        guard ceilOutputs.count == 1, let durations = ceilOutputs.first, durations.utf8.count <= 1024 else {
            return .success(Found(durationsOutput: nil, inputs: inputs, outputs: outputs))
        }
        if outputs.contains(durations) {
            return .success(Found(durationsOutput: durations, inputs: inputs, outputs: outputs))
        }
        var valueInfo: [UInt8] = []
        appendLengthDelimited(field: 1, Array(durations.utf8), to: &valueInfo)
        var addition: [UInt8] = []
        appendLengthDelimited(field: 12, valueInfo, to: &addition)
        var header: [UInt8] = []
        appendVarint(UInt64(7 << 3 | 2), to: &header)
        appendVarint(UInt64(graphField.content.count + addition.count), to: &header)
        // The addition goes at the graph's end first, so the header's change does not move it.
        model.insert(contentsOf: addition, at: graphField.content.upperBound)
        model.replaceSubrange(graphField.start..<graphField.content.lowerBound, with: header)
        return .success(Found(durationsOutput: durations, inputs: inputs, outputs: outputs + [durations]))
    }

    /// The name (field 1) of a ValueInfoProto.
    private static func name(of bytes: [UInt8], _ range: Range<Int>) throws(Problem) -> String {
        var reader = ProtobufReader(bytes: bytes, range: range)
        var name = ""
        while let field = try reader.next() {
            if field.number == 1, case .bytes(let content) = field.value {
                name = String(decoding: bytes[content], as: UTF8.self)
            }
        }
        return name
    }

    private struct NodeFields {
        var outputs: [String] = []
        var opType = ""
        var name = ""

        init(_ bytes: [UInt8], _ range: Range<Int>) throws(Problem) {
            var reader = ProtobufReader(bytes: bytes, range: range)
            while let field = try reader.next() {
                guard case .bytes(let content) = field.value else { continue }
                if field.number == 2 { outputs.append(String(decoding: bytes[content], as: UTF8.self)) }
                if field.number == 3 { name = String(decoding: bytes[content], as: UTF8.self) }
                if field.number == 4 { opType = String(decoding: bytes[content], as: UTF8.self) }
            }
        }
    }

    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    static func appendLengthDelimited(field: Int, _ content: [UInt8], to bytes: inout [UInt8]) {
        appendVarint(UInt64(field << 3 | 2), to: &bytes)
        appendVarint(UInt64(content.count), to: &bytes)
        bytes += content
    }
}

/// Reads the fields of one protobuf message, checking every length against the bytes there are.
struct ProtobufReader {
    enum Value {
        case number
        case bytes(Range<Int>)
    }

    struct Field {
        var number: Int
        /// Where the field's tag starts.
        var start: Int
        var value: Value
    }

    let bytes: [UInt8]
    private var position: Int
    private let end: Int

    init(bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    mutating func next() throws(ModelEdit.Problem) -> Field? {
        guard position < end else { return nil }
        let start = position
        let tag = try varint()
        let number = Int(truncatingIfNeeded: tag >> 3)
        guard number > 0 else { throw .malformed("field number 0 at byte \(start)") }
        switch tag & 7 {
        case 0:
            _ = try varint()
            return Field(number: number, start: start, value: .number)
        case 1:
            try skip(8)
            return Field(number: number, start: start, value: .number)
        case 5:
            try skip(4)
            return Field(number: number, start: start, value: .number)
        case 2:
            let length = try varint()
            guard length <= UInt64(end - position) else {
                throw .malformed("a field at byte \(start) runs past its end (cut short?)")
            }
            let content = position..<(position + Int(length))
            position = content.upperBound
            return Field(number: number, start: start, value: .bytes(content))
        default:
            throw .malformed("wire type \(tag & 7) at byte \(start)")
        }
    }

    private mutating func skip(_ count: Int) throws(ModelEdit.Problem) {
        guard end - position >= count else { throw .malformed("cut short at byte \(position)") }
        position += count
    }

    private mutating func varint() throws(ModelEdit.Problem) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw .malformed("cut short at byte \(position)") }
            guard shift < 64 else { throw .malformed("a number too long at byte \(position)") }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }
}
