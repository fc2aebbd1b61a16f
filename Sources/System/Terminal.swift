import Glibc

/// The terminal the process runs in, if any: standard input and output.
public enum Terminal {
    /// Whether standard input and standard output are both terminals (a person at a keyboard
    /// watching), rather than a pipe or a file.
    public static var isInteractive: Bool {
        isatty(0) == 1 && isatty(1) == 1
    }

    /// The width of standard output's terminal in columns; `$COLUMNS`, else 80, when it has none.
    public static var columns: Int {
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let text = Environment.value("COLUMNS"), let columns = Int(text), columns > 0 { return columns }
        return 80
    }

    /// Writes `text` to standard output at once and whole. `print` is block-buffered in a pipe,
    /// which would hold back what is said as it is heard.
    public static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(1, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // a closed pipe: nobody is reading
                }
                offset += written
            }
        }
    }
}

/// A key pressed on the terminal.
public enum Key: Equatable, Sendable {
    /// A character typed, space included.
    case character(Character)
    /// Ctrl-C or Ctrl-D: in raw mode they arrive as keys rather than as a signal or an end of input.
    case interrupt
    case escape
    case up, down, left, right
}

/// Keys from standard input, one at a time as they are pressed, while the terminal is in raw
/// mode (no echo, no line editing). ``close()`` — or the end of the reader — puts the terminal
/// back as it was, so a program that ends by any path but a signal leaves it usable.
public final class KeyReader: Sendable {
    /// The keys pressed, until ``close()`` or the end of input.
    public let keys: AsyncStream<Key>
    private let saved: Locked<termios?>
    private let wake: EventFD
    private let thread: NamedThread

    /// Puts standard input, which must be a terminal, into raw mode and starts reading it.
    public init() throws(Errno) {
        guard isatty(0) == 1 else { throw Errno(ENOTTY) }
        var original = termios()
        guard tcgetattr(0, &original) == 0 else { throw .current }
        var raw = original
        // Keys one by one, unechoed; Ctrl-C as a key so that the program restores the terminal
        // and stops its speech itself. Output processing stays on: "\n" still starts a line.
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(0, TCSANOW, &raw) == 0 else { throw .current }
        saved = Locked(original)
        let wake: EventFD
        do {
            wake = try EventFD()
        } catch {
            var restore = original
            tcsetattr(0, TCSANOW, &restore)
            throw error
        }
        self.wake = wake
        let (stream, continuation) = AsyncStream.makeStream(of: Key.self, bufferingPolicy: .unbounded)
        keys = stream
        let wakeDescriptor = wake.rawValue
        do {
            thread = try NamedThread(name: "utter-keys") {
                var decoder = KeyDecoder()
                var buffer = [UInt8](repeating: 0, count: 64)
                reading: while true {
                    guard case .success(let ready) = poll([0, wakeDescriptor], timeout: nil) else { break }
                    if ready[1] { break }
                    guard ready[0] else { continue }
                    let count = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR || errno == EAGAIN { continue }
                    guard count > 0 else { break }
                    for byte in buffer[..<count] {
                        for key in decoder.take(byte) {
                            continuation.yield(key)
                            if key == .interrupt { break reading }
                        }
                    }
                    for key in decoder.flush() { continuation.yield(key) }
                }
                continuation.finish()
            }
        } catch {
            var restore = original
            tcsetattr(0, TCSANOW, &restore)
            throw error
        }
    }

    /// Stops reading and restores the terminal; called again, it does nothing.
    public func close() {
        guard let original = saved.withLock({ state -> termios? in
            defer { state = nil }
            return state
        }) else { return }
        wake.signal()
        thread.join(until: MonotonicClock.now + 1_000_000_000)
        var restore = original
        tcsetattr(0, TCSAFLUSH, &restore)
    }

    deinit { close() }
}

/// Turns the bytes a terminal sends into keys: UTF-8 characters, and the escape sequences of the
/// arrow keys.
struct KeyDecoder {
    private var pending: [UInt8] = []

    /// The keys that `byte` completes.
    mutating func take(_ byte: UInt8) -> [Key] {
        pending.append(byte)
        if pending[0] == 0x1B {
            // ESC [ A…D (or ESC O A…D in application mode); anything else ends the sequence.
            if pending.count == 1 { return [] }
            if pending.count == 2 { return pending[1] == UInt8(ascii: "[") || pending[1] == UInt8(ascii: "O") ? [] : drain() }
            defer { pending.removeAll() }
            switch pending[2] {
            case UInt8(ascii: "A"): return [.up]
            case UInt8(ascii: "B"): return [.down]
            case UInt8(ascii: "C"): return [.right]
            case UInt8(ascii: "D"): return [.left]
            default: return []
            }
        }
        let expected: Int
        switch pending[0] {
        case 0xC0...0xDF: expected = 2
        case 0xE0...0xEF: expected = 3
        case 0xF0...0xF7: expected = 4
        default: expected = 1
        }
        guard pending.count >= expected else { return [] }
        return drain()
    }

    /// What is pending when no more bytes came with it: a lone ESC is the Escape key.
    mutating func flush() -> [Key] {
        pending == [0x1B] ? drain() : []
    }

    private mutating func drain() -> [Key] {
        defer { pending.removeAll() }
        if pending == [0x1B] { return [.escape] }
        if pending.first == 0x1B { return [.escape] + String(decoding: pending.dropFirst(), as: UTF8.self).map(Self.key) }
        return String(decoding: pending, as: UTF8.self).map(Self.key)
    }

    private static func key(_ character: Character) -> Key {
        character == "\u{03}" || character == "\u{04}" ? .interrupt : .character(character)
    }
}
