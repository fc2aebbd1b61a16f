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
    private var blockLines: [[UInt8]] = []

    public init() {}

    /// Reads one line (without its LF) and returns what it completed, if anything.
    public mutating func read(_ line: [UInt8]) -> Output? {
        if let kind = block {
            if line == [0x2E] {  // "."
                block = nil
                let lines = blockLines
                blockLines = []
                return .command(Self.command(for: kind, lines: lines))
            }
            blockLines.append(line)
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

    private static func command(for kind: BlockKind, lines: [[UInt8]]) -> Command {
        switch kind {
        case .audio: .audio(settingsBlock(lines))
        case .logLevel: .logLevel(settingsBlock(lines))
        case .settings: .set(settingsBlock(lines))
        case .message(let messageKind): .message(messageKind, messageData(lines))
        }
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

    private static func messageData(_ lines: [[UInt8]]) -> MessageData {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.reduce(0) { $0 + $1.count + 1 })
        for (index, line) in lines.enumerated() {
            if index > 0 { bytes.append(0x0A) }
            // Dot-stuffing: the server doubles a leading dot; exactly one is removed.
            if line.first == 0x2E {
                bytes.append(contentsOf: line.dropFirst())
            } else {
                bytes.append(contentsOf: line)
            }
        }
        let valid = String(validating: bytes, as: UTF8.self)
        return MessageData(
            text: valid ?? String(decoding: bytes, as: UTF8.self),
            lineCount: lines.count,
            hadInvalidUTF8: valid == nil)
    }
}


