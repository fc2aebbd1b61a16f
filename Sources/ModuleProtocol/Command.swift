/// A `name=value` line of an AUDIO, LOGLEVEL or SET block.
public struct Setting: Equatable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The lines of a key/value block, with any line that was not `name=value`.
public struct SettingsBlock: Equatable, Sendable {
    public var settings: [Setting]
    /// Lines without `=`, kept so they can be logged; the server never sends them.
    public var malformedLines: [String]

    public init(settings: [Setting] = [], malformedLines: [String] = []) {
        self.settings = settings
        self.malformedLines = malformedLines
    }

    /// The value of the last setting called `name`, if any.
    public func value(of name: String) -> String? {
        settings.last { $0.name == name }?.value
    }
}

/// What a message command asks to be spoken.
public enum MessageKind: String, Equatable, Sendable {
    case speak = "SPEAK"
    case character = "CHAR"
    case key = "KEY"
    case soundIcon = "SOUND_ICON"
}

/// The data block of a SPEAK, CHAR, KEY or SOUND_ICON command, dot-stuffing removed.
public struct MessageData: Equatable, Sendable {
    public var text: String
    public var lineCount: Int
    /// True when the bytes were not valid UTF-8 and were repaired with U+FFFD.
    public var hadInvalidUTF8: Bool

    public init(text: String, lineCount: Int, hadInvalidUTF8: Bool = false) {
        self.text = text
        self.lineCount = lineCount
        self.hadInvalidUTF8 = hadInvalidUTF8
    }
}

/// One complete command from speech-dispatcher.
public enum Command: Equatable, Sendable {
    case initialize
    case audio(SettingsBlock)
    case logLevel(SettingsBlock)
    case set(SettingsBlock)
    case message(MessageKind, MessageData)
    case stop
    case pause
    case listVoices(language: String?, variant: String?)
    case debugOn(path: String)
    case debugOff
    case quit
    /// A line that is no command of the protocol, as received (invalid UTF-8 repaired).
    case unknown(String)
}

/// Blocks that follow a command line, after the module acknowledged it.
public enum BlockKind: Equatable, Sendable {
    case audio
    case logLevel
    case settings
    case message(MessageKind)
}
