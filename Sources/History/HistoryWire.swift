/// What `utter history` asks a module over the history socket: one line per connection.
public enum HistoryRequest: Equatable, Sendable {
    /// Every entry, the newest first.
    case list
    /// Speak entry `number` (1: the newest) again.
    case replay(Int)

    /// The request line, newline included.
    public var encoded: String {
        switch self {
        case .list: "LIST\n"
        case .replay(let number): "REPLAY \(number)\n"
        }
    }

    /// The request in `line` (without its newline), or nil when it is none.
    public init?(line: String) {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        switch (words.first, words.count) {
        case ("LIST", 1): self = .list
        case ("REPLAY", 2):
            guard let number = Int(words[1]) else { return nil }
            self = .replay(number)
        default: return nil
        }
    }
}

/// A module's answer to a ``HistoryRequest``: the whole reply, after which the module closes the connection.
public enum HistoryReply: Equatable, Sendable {
    /// For LIST, the entries, the newest first (the first is number 1); for REPLAY, the one replayed.
    case entries([HistoryEntry])
    /// The request was refused, and why, in words for the user.
    case refused(String)

    /// The reply as sent: `OK` or `ERR` and a count or reason, then one line per entry with tab-separated fields.
    public var encoded: String {
        switch self {
        case .entries(let entries):
            var text = "OK \(entries.count)\n"
            for entry in entries {
                let fields = [
                    String(entry.time), entry.kind.rawValue, entry.voice, entry.language, entry.text,
                ]
                text += fields.map(Self.escaped).joined(separator: "\t") + "\n"
            }
            return text
        case .refused(let reason): return "ERR \(Self.escaped(reason))\n"
        }
    }

    /// The reply in `text` (everything the module sent), or nil when it is malformed.
    public init?(_ text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.last == "" else { return nil }
        lines.removeLast()
        guard let head = lines.first else { return nil }
        if head.hasPrefix("ERR ") {
            guard lines.count == 1 else { return nil }
            self = .refused(Self.unescaped(String(head.dropFirst(4))))
            return
        }
        guard head.hasPrefix("OK "), let count = Int(head.dropFirst(3)), count == lines.count - 1 else {
            return nil
        }
        var entries: [HistoryEntry] = []
        for line in lines.dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map {
                Self.unescaped(String($0))
            }
            guard fields.count == 5, let time = Int64(fields[0]), let kind = HistoryEntry.Kind(rawValue: fields[1])
            else { return nil }
            entries.append(HistoryEntry(text: fields[4], kind: kind, voice: fields[2], language: fields[3], time: time))
        }
        self = .entries(entries)
    }

    /// `text` with backslashes, tabs and line breaks written as escapes, so a field is one piece of one line.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func unescaped(_ text: String) -> String {
        var result = ""
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                switch scalar {
                case "t": result += "\t"
                case "n": result += "\n"
                case "r": result += "\r"
                default: result.unicodeScalars.append(scalar)
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
