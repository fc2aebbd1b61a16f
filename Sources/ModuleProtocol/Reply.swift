/// A reply to a command, as the module sends it.
public enum Reply: Equatable, Sendable {
    /// `299` lines then `299 OK LOADED SUCCESSFULLY`.
    case initialized(details: [String])
    /// `399` lines then `399 ERR CANT INIT MODULE`.
    case initializationFailed(reason: String)
    case receivingAudioSettings
    case audioInitialized
    /// Any 3xx makes the server send its second AUDIO block.
    case audioRefused(reason: String)
    case receivingLogLevel
    case logLevelSet
    case receivingSettings
    case settingsReceived
    case receivingMessage
    case speaking
    case cannotSpeak
    case dataMoreThanOneLine
    case debuggingOn
    case debuggingOff
    case cannotOpenDebugFile
    case voiceList([VoiceListEntry])
    case cannotListVoices
    case quitting
    case unknownCommand

    /// The reply's bytes: every line ends in LF, the last line has a space after its code.
    public var encoded: String {
        switch self {
        case .initialized(let details):
            return Self.multiline(code: 299, lines: details, final: "OK LOADED SUCCESSFULLY")
        case .initializationFailed(let reason):
            return Self.multiline(code: 399, lines: [reason], final: "ERR CANT INIT MODULE")
        case .receivingAudioSettings: return "207 OK RECEIVING AUDIO SETTINGS\n"
        case .audioInitialized: return "203 OK AUDIO INITIALIZED\n"
        case .audioRefused(let reason): return Self.multiline(code: 300, lines: [reason], final: "MODULE ERROR")
        case .receivingLogLevel: return "207 OK RECEIVING LOGLEVEL SETTINGS\n"
        case .logLevelSet: return "203 OK LOGLEVEL SET\n"
        case .receivingSettings: return "203 OK RECEIVING SETTINGS\n"
        case .settingsReceived: return "203 OK SETTINGS RECEIVED\n"
        case .receivingMessage: return "202 OK RECEIVING MESSAGE\n"
        case .speaking: return "200 OK SPEAKING\n"
        case .cannotSpeak: return "301 ERROR CANT SPEAK\n"
        case .dataMoreThanOneLine: return "305 DATA MORE THAN ONE LINE\n"
        case .debuggingOn: return "200 OK DEBUGGING ON\n"
        case .debuggingOff: return "200 OK DEBUGGING OFF\n"
        case .cannotOpenDebugFile: return "303 CANT OPEN CUSTOM DEBUG FILE\n"
        case .voiceList(let entries):
            var text = ""
            text.reserveCapacity(entries.count * 40 + 24)
            for entry in entries {
                text += "200-\(entry.encoded)\n"
            }
            return text + "200 OK VOICE LIST SENT\n"
        case .cannotListVoices: return "304 CANT LIST VOICES\n"
        case .quitting: return "210 OK QUIT\n"
        case .unknownCommand: return "300 ERR UNKNOWN COMMAND\n"
        }
    }

    private static func multiline(code: Int, lines: [String], final: String) -> String {
        var text = ""
        for line in lines {
            text += "\(code)-\(ProtocolText.singleLine(line))\n"
        }
        return text + "\(code) \(final)\n"
    }
}

/// One line of the LIST VOICES reply.
public struct VoiceListEntry: Equatable, Sendable {
    public var name: String
    public var language: String
    public var variant: String

    public init(name: String, language: String, variant: String = "none") {
        self.name = name
        self.language = language
        self.variant = variant
    }

    /// `name<TAB>language<TAB>variant`, each field non-empty and free of TAB and LF.
    public var encoded: String {
        "\(ProtocolText.field(name))\t\(ProtocolText.field(language))\t\(ProtocolText.field(variant))"
    }
}

/// An asynchronous event about the message being spoken.
public enum Event: Equatable, Sendable {
    case begin
    case indexMark(String)
    case end
    case stopped
    case paused

    /// True for the events that end a message (702, 703, 704).
    public var isTerminal: Bool {
        switch self {
        case .end, .stopped, .paused: true
        case .begin, .indexMark: false
        }
    }

    /// The event's bytes.
    public var encoded: String {
        switch self {
        case .begin: "701 BEGIN\n"
        case .indexMark(let name): "700-\(ProtocolText.singleLine(name))\n700 INDEX MARK\n"
        case .end: "702 END\n"
        case .stopped: "703 STOP\n"
        case .paused: "704 PAUSE\n"
        }
    }
}

enum ProtocolText {
    /// `text` with CR and LF replaced by spaces, so it cannot end a protocol line early.
    static func singleLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
        return String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }

    /// `text` usable as a TAB-separated voice list field: never empty, no TAB, CR or LF.
    static func field(_ text: String) -> String {
        let cleaned = String(
            singleLine(text).map { $0 == "\t" ? " " : $0 })
        return cleaned.isEmpty ? "none" : cleaned
    }
}
