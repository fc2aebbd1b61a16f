/// A NumPy `.npy` array of little-endian float32 (the format of a Kokoro voice's style vectors,
/// each a member of a voice pack's `.npz`): its shape and values. Pure; every length is checked.
public struct NumpyArray: Equatable, Sendable {
    public var shape: [Int]
    public var values: [Float]

    public init(shape: [Int], values: [Float]) {
        self.shape = shape
        self.values = values
    }

    /// Why bytes are not a float32 `.npy` array.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    static let magic: [UInt8] = [0x93] + Array("NUMPY".utf8)

    /// Reads an `.npy` file's bytes (format versions 1 to 3), C order, `<f4`.
    public static func read(_ bytes: some Collection<UInt8>) -> Result<NumpyArray, Problem> {
        let bytes = Array(bytes)
        guard bytes.count >= 10, Array(bytes[0..<6]) == magic else { return .failure(Problem("not a .npy array")) }
        let major = bytes[6]
        let headerLength: Int
        let headerStart: Int
        switch major {
        case 1:
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
            headerStart = 10
        case 2, 3:
            guard bytes.count >= 12 else { return .failure(Problem("cut short")) }
            headerLength = (8..<12).reduce(0) { $0 | Int(bytes[$1]) << (8 * ($1 - 8)) }
            headerStart = 12
        default:
            return .failure(Problem(".npy format version \(major) is not known"))
        }
        guard headerLength <= bytes.count - headerStart else { return .failure(Problem("its header is cut short")) }
        let header = String(decoding: bytes[headerStart..<(headerStart + headerLength)], as: UTF8.self)
        guard let descr = value(of: "descr", in: header) else { return .failure(Problem("its header has no descr")) }
        guard descr == "'<f4'" || descr == "'float32'" || descr == "\"<f4\"" else {
            return .failure(Problem("its values are \(descr), not little-endian float32 ('<f4')"))
        }
        if let order = value(of: "fortran_order", in: header), order != "False" {
            return .failure(Problem("its values are in Fortran order"))
        }
        guard let shapeText = value(of: "shape", in: header), shapeText.hasPrefix("("), shapeText.hasSuffix(")") else {
            return .failure(Problem("its header has no shape"))
        }
        var shape: [Int] = []
        for part in shapeText.dropFirst().dropLast().split(separator: ",") {
            let trimmed = part.filter { $0 != " " }
            guard !trimmed.isEmpty else { continue }
            guard let dimension = Int(trimmed), dimension >= 0, dimension <= 1 << 28 else {
                return .failure(Problem("its shape \(shapeText) is not a list of sizes"))
            }
            shape.append(dimension)
        }
        let (count, overflow) = shape.reduce((1, false)) { result, dimension in
            let (product, overflow) = result.0.multipliedReportingOverflow(by: dimension)
            return (product, result.1 || overflow || product > 1 << 28)
        }
        let dataStart = headerStart + headerLength
        guard !overflow, count * 4 <= bytes.count - dataStart else {
            return .failure(Problem("it holds fewer values than its shape \(shapeText) says"))
        }
        var values = [Float](repeating: 0, count: count)
        for index in 0..<count {
            let offset = dataStart + index * 4
            let bits =
                UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
            values[index] = Float(bitPattern: bits)
        }
        return .success(NumpyArray(shape: shape, values: values))
    }

    /// The text of a key's value in the header's Python dict literal (`'shape': (510, 1, 256)`).
    static func value(of key: String, in header: String) -> String? {
        for quote in ["'", "\""] {
            guard let keyRange = header.firstRange(of: quote + key + quote) else { continue }
            var rest = header[keyRange.upperBound...].drop { $0 == " " }
            guard rest.first == ":" else { return nil }
            rest = rest.dropFirst().drop { $0 == " " }
            if rest.first == "(" {
                guard let close = rest.firstIndex(of: ")") else { return nil }
                return String(rest[...close])
            }
            let end = rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex
            return String(rest[..<end]).trimmingSpaces
        }
        return nil
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
