/// Turns protocol lines into commands: recognises command lines, collects their blocks and
/// undoes dot-stuffing. Pure: it performs no I/O and holds only the block being collected.
public struct CommandReader: Sendable {
    /// What one line produced.
    public enum Output: Equatable, Sendable {
        /// A command line that opens a block: the module must acknowledge it now (207/203/202).
        case blockStarted(BlockKind)
        /// A complete command.
        case command(Command)
    }

    private var block: BlockKind?
    /// The lines of a settings block.
    private var blockLines: [[UInt8]] = []
    /// A message block's text as its lines arrive, dot-stuffing undone and each line decoded on
    /// arrival (an LF never splits a UTF-8 sequence), so that the closing dot finds it made.
    private var message = MessageData(text: "", lineCount: 0)
    /// The start of a line handed over in pieces outside a message block, kept until its end.
    private var partialLine: [UInt8] = []
    /// Whether the last piece read left its line unfinished.
    private var isInLine = false

    public init() {}

    /// Whether a line may be handed over in pieces now (``LineSplitter/append(_:handsOverPartialLines:_:)``):
    /// inside a message block, where a line of megabytes is then decoded as it arrives.
    public var takesPartialLines: Bool {
        if case .message = block { true } else { false }
    }

    /// Reads one line (without its LF) and returns what it completed, if anything.
    public mutating func read(_ line: [UInt8]) -> Output? {
        read(line[...])
    }

    /// Reads one line (without its LF) and returns what it completed, if anything.
    public mutating func read(_ line: ArraySlice<UInt8>) -> Output? {
        read(LineSplitter.Line(bytes: line))
    }

    /// Reads one line, or one piece of a line (``LineSplitter/Line/isComplete``), and returns
    /// what it completed, if anything.
    public mutating func read(_ line: LineSplitter.Line) -> Output? {
        let continues = isInLine
        isInLine = !line.isComplete
        if case .message = block {
            if continues {
                append(line.bytes)
                return nil
            }
            if line.isComplete && line.bytes.count == 1 && line.bytes.first == 0x2E {  // "."
                return .command(endBlock())
            }
            if message.lineCount > 0 { message.text += "\n" }
            message.lineCount += 1
            // Dot-stuffing: the server doubles a leading dot; exactly one is removed.
            append(line.bytes.first == 0x2E ? line.bytes.dropFirst() : line.bytes)
            return nil
        }
        // Outside a message, a line is read whole.
        guard line.isComplete else {
            partialLine.append(contentsOf: line.bytes)
            return nil
        }
        guard continues else { return read(whole: line.bytes) }
        partialLine.append(contentsOf: line.bytes)
        defer { partialLine.removeAll(keepingCapacity: partialLine.count <= 4096) }
        return read(whole: partialLine[...])
    }

    /// Adds message text as it arrived, repaired with U+FFFD where it is not UTF-8.
    private mutating func append(_ bytes: ArraySlice<UInt8>) {
        if let valid = String(validating: bytes, as: UTF8.self) {
            message.text += valid
        } else {
            message.text += String(decoding: bytes, as: UTF8.self)
            message.hadInvalidUTF8 = true
        }
    }

    private mutating func endBlock() -> Command {
        let kind = block
        block = nil
        let lines = blockLines
        blockLines = []
        switch kind {
        case .audio: return .audio(Self.settingsBlock(lines))
        case .logLevel: return .logLevel(Self.settingsBlock(lines))
        case .settings, nil: return .set(Self.settingsBlock(lines))
        case .message(let messageKind):
            defer { message = MessageData(text: "", lineCount: 0) }
            return .message(messageKind, message)
        }
    }

    private mutating func read(whole line: ArraySlice<UInt8>) -> Output? {
        if block != nil {
            if line.count == 1 && line.first == 0x2E { return .command(endBlock()) }
            blockLines.append(Array(line))
            return nil
        }
        let text = String(decoding: line, as: UTF8.self)
        if let kind = Self.blockKind(of: text) {
            block = kind
            return .blockStarted(kind)
        }
        return .command(Self.simpleCommand(text))
    }

    private static func blockKind(of line: String) -> BlockKind? {
        switch line {
        case "AUDIO": .audio
        case "LOGLEVEL": .logLevel
        case "SET": .settings
        case "SPEAK": .message(.speak)
        case "CHAR": .message(.character)
        case "KEY": .message(.key)
        case "SOUND_ICON": .message(.soundIcon)
        default: nil
        }
    }

    private static func simpleCommand(_ line: String) -> Command {
        switch line {
        case "INIT": return .initialize
        case "STOP": return .stop
        case "PAUSE": return .pause
        case "QUIT": return .quit
        case "LIST VOICES": return .listVoices(language: nil, variant: nil)
        default: break
        }
        if line.hasPrefix("LIST VOICES ") {
            // 0.12 form: `LIST VOICES <language> [<variant>]`.
            let words = line.dropFirst("LIST VOICES ".count).split(separator: " ").map(String.init)
            if (1...2).contains(words.count) {
                return .listVoices(language: words[0], variant: words.count == 2 ? words[1] : nil)
            }
            return .unknown(line)
        }
        // The server sends `DEBUG ON <path> ` and `DEBUG OFF ` with a trailing space.
        if line.hasPrefix("DEBUG ON ") {
            let path = String(line.dropFirst("DEBUG ON ".count).trimmingSpaces())
            return path.isEmpty ? .unknown(line) : .debugOn(path: path)
        }
        if line == "DEBUG OFF" || line.hasPrefix("DEBUG OFF ") && line.dropFirst(9).trimmingSpaces().isEmpty {
            return .debugOff
        }
        return .unknown(line)
    }

    private static func settingsBlock(_ lines: [[UInt8]]) -> SettingsBlock {
        var block = SettingsBlock()
        for line in lines {
            let text = String(decoding: line, as: UTF8.self)
            if let equals = text.firstIndex(of: "="), equals != text.startIndex {
                block.settings.append(
                    Setting(name: String(text[..<equals]), value: String(text[text.index(after: equals)...])))
            } else {
                block.malformedLines.append(text)
            }
        }
        return block
    }
}


