/// Splits a byte stream into LF-terminated lines, however the writer chunked it.
///
/// speech-dispatcher writes commands in arbitrary pieces (a SPEAK text without its last LF in one
/// write, `\n.\n` in the next), so lines are assembled here before anything interprets them. CR is
/// data, never a terminator.
public struct LineSplitter: Sendable {
    /// The longest line kept whole; the rest of a longer line is dropped and the line flagged.
    public let maximumLineLength: Int
    private var pending: [UInt8] = []
    private var overflowed = false

    /// A complete line without its LF.
    public struct Line: Equatable, Sendable {
        public var bytes: [UInt8]
        /// True when the line was longer than `maximumLineLength` and was cut.
        public var isTruncated: Bool

        public init(bytes: [UInt8], isTruncated: Bool = false) {
            self.bytes = bytes
            self.isTruncated = isTruncated
        }
    }

    public init(maximumLineLength: Int = 64 << 20) {
        precondition(maximumLineLength > 0)
        self.maximumLineLength = maximumLineLength
    }

    /// Appends `bytes` and calls `body` once for every line they complete, in order.
    public mutating func append(_ bytes: some Collection<UInt8>, _ body: (Line) -> Void) {
        var start = bytes.startIndex
        while start != bytes.endIndex {
            let newline = bytes[start...].firstIndex(of: 0x0A)
            keep(bytes[start..<(newline ?? bytes.endIndex)])
            guard let newline else { return }
            body(Line(bytes: pending, isTruncated: overflowed))
            pending.removeAll(keepingCapacity: pending.count <= 4096)
            overflowed = false
            start = bytes.index(after: newline)
        }
    }

    /// Adds part of a line, up to the length limit.
    private mutating func keep(_ part: some Collection<UInt8>) {
        let room = maximumLineLength - pending.count
        if part.count <= room {
            pending.append(contentsOf: part)
        } else {
            pending.append(contentsOf: part.prefix(room))
            overflowed = true
        }
    }
}
