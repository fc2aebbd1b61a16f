/// Splits a byte stream into LF-terminated lines, however the writer chunked it.
///
/// speech-dispatcher writes commands in arbitrary pieces (a SPEAK text without its last LF in one
/// write, `\n.\n` in the next), so lines are assembled here before anything interprets them. CR is
/// data, never a terminator. A line that lies whole in one read is handed over as a slice of it,
/// not copied: a 5 MB message of short lines costs no allocation per line.
public struct LineSplitter: Sendable {
    /// The longest line kept whole; the rest of a longer line is dropped and the line flagged.
    public let maximumLineLength: Int
    private var pending: [UInt8] = []
    private var overflowed = false

    /// A complete line without its LF, or a piece of one (see `isComplete`).
    public struct Line: Equatable, Sendable {
        public var bytes: ArraySlice<UInt8>
        /// True when the line was longer than `maximumLineLength` and was cut.
        public var isTruncated: Bool
        /// False for a piece of a line handed over before its end, which the next ones continue;
        /// the last piece is complete. Pieces end between whole UTF-8 sequences.
        public var isComplete: Bool

        public init(bytes: ArraySlice<UInt8>, isTruncated: Bool = false, isComplete: Bool = true) {
            self.bytes = bytes
            self.isTruncated = isTruncated
            self.isComplete = isComplete
        }

        public init(bytes: [UInt8], isTruncated: Bool = false, isComplete: Bool = true) {
            self.init(bytes: bytes[...], isTruncated: isTruncated, isComplete: isComplete)
        }
    }

    /// How much of the current line was handed over in pieces already.
    private var handedOver = 0

    public init(maximumLineLength: Int = 64 << 20) {
        precondition(maximumLineLength > 0)
        self.maximumLineLength = maximumLineLength
    }

    /// Appends `bytes` and calls `body` once for every line they complete, in order.
    public mutating func append(_ bytes: [UInt8], _ body: (Line) -> Void) {
        append(bytes[...], body)
    }

    /// Appends `bytes` and calls `body` once for every line they complete, in order. When the
    /// bytes end inside a line and `handsOverPartialLines` says so then, what they hold of it
    /// is handed over at once as a piece (``Line/isComplete`` false): a message's line of
    /// megabytes is then taken in as it arrives, not all at its end. A piece is never a lone
    /// `.`, which would read as a block's end, and never splits a UTF-8 sequence.
    public mutating func append(
        _ bytes: ArraySlice<UInt8>, handsOverPartialLines: () -> Bool = { false }, _ body: (Line) -> Void
    ) {
        var start = bytes.startIndex
        while start != bytes.endIndex {
            let found = bytes.withUnsafeBufferPointer { buffer in
                Self.firstNewline(in: buffer, from: start - bytes.startIndex)
            }
            guard let found else {
                keep(bytes[start...])
                if handsOverPartialLines() { handOverPiece(body) }
                return
            }
            let newline = bytes.startIndex + found
            if pending.isEmpty && !overflowed && handedOver == 0 {
                let end = min(newline, start + maximumLineLength)
                body(Line(bytes: bytes[start..<end], isTruncated: end < newline))
            } else {
                keep(bytes[start..<newline])
                body(Line(bytes: pending[...], isTruncated: overflowed))
                pending.removeAll(keepingCapacity: pending.count <= 4096)
                overflowed = false
                handedOver = 0
            }
            start = newline + 1
        }
    }

    /// Hands over what is kept of an unfinished line, up to its last whole UTF-8 sequence.
    private mutating func handOverPiece(_ body: (Line) -> Void) {
        let end = Self.lastBoundary(in: pending)
        // The line's first piece is two bytes at least: a lone `.` may be a whole line.
        guard end >= (handedOver > 0 ? 1 : 2) else { return }
        body(Line(bytes: pending[..<end], isTruncated: false, isComplete: false))
        handedOver += end
        pending.removeSubrange(..<end)
    }

    /// Adds part of a line, up to the length limit.
    private mutating func keep(_ part: ArraySlice<UInt8>) {
        let room = maximumLineLength - handedOver - pending.count
        if part.count <= room {
            pending.append(contentsOf: part)
        } else {
            pending.append(contentsOf: part.prefix(max(room, 0)))
            overflowed = true
        }
    }

    /// Where the bytes end after their last whole UTF-8 sequence: before a lead byte whose
    /// sequence is not all there yet, else at their end (bytes that are no UTF-8 are whole as
    /// they are: a decoder replaces them alike, cut there or not).
    static func lastBoundary(in bytes: [UInt8]) -> Int {
        var index = bytes.count
        var back = 0
        while index > 0 && back < 4 {
            index -= 1
            back += 1
            let byte = bytes[index]
            guard byte & 0xC0 == 0x80 else {
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                return length > back ? index : bytes.count
            }
        }
        return bytes.count
    }

    /// The offset of the first LF in `buffer` at or after `start`, eight bytes at a time.
    static func firstNewline(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        guard let base = buffer.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        while index + 8 <= buffer.count {
            // A zero byte in `word ^ LFs` is an LF: the classic test for a zero byte in a word.
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ (ones &* 0x0A)
            if (word &- ones) & ~word & (ones &* 0x80) != 0 { break }
            index += 8
        }
        while index < buffer.count {
            if buffer[index] == 0x0A { return index }
            index += 1
        }
        return nil
    }
}
