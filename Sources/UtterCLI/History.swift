import ArgumentParser
import History
import JSON
import System
import UtterKit

extension UtterCommand {
    struct HistoryCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "List what the Utter module just said; speak or save a message again.",
            discussion: """
                speech-dispatcher's Utter module keeps its last messages in memory (utter.conf's HistorySize, \
                50 by default) and answers on a socket in $XDG_RUNTIME_DIR/utter that only you can open. \
                Messages are numbered from the newest, 1. With several modules running, the one that \
                spoke last answers.
                """)

        @Flag(help: "Print the messages as JSON, for scripts.")
        var json = false

        @Flag(help: "Speak message <number> (default 1, the newest) again through the module, interrupting it.")
        var replay = false

        @Flag(help: "Render message <number> to <file> (.wav, .flac, .ogg, …) with its voice.")
        var save = false

        @Argument(help: "The message, counted from the newest (1), for --replay and --save.")
        var number: String?

        @Argument(help: "With --save, the sound file to write.")
        var file: String?

        func validate() throws {
            if replay && save { throw ValidationError("--replay and --save cannot be used together.") }
            if json && (replay || save) { throw ValidationError("--json is for the list alone.") }
            if save {
                guard let number, file != nil else {
                    throw ValidationError("--save needs the message number and a file: --save N FILE.wav.")
                }
                _ = try Self.number(number)
            } else if replay {
                if file != nil { throw ValidationError("--replay takes one message number.") }
                if let number { _ = try Self.number(number) }
            } else if let number {
                throw ValidationError("Unexpected argument '\(number)': the list takes none (see --replay, --save).")
            }
        }

        private static func number(_ text: String) throws -> Int {
            guard let value = Int(text), value >= 1 else {
                throw ValidationError("The message number must be 1 or more, got '\(text)'.")
            }
            return value
        }

        func run() async throws {
            let module = try HistoryClient.latestModule()
            if replay {
                let wanted = try number.map(Self.number) ?? 1
                let entry = try module.replay(wanted)
                print("Replaying \(wanted): \(entry.shownText)")
            } else if save {
                let wanted = try Self.number(number ?? "")
                try await saveEntry(of: module, number: wanted, to: file ?? "")
            } else {
                print(json ? Self.json(module) : Self.text(module.entries), terminator: "")
            }
        }

        private func saveEntry(of module: HistoryClient.Module, number wanted: Int, to path: String) async throws {
            guard module.entries.indices.contains(wanted - 1) else {
                throw UtterError(HistoryClient.outOfRange(wanted, count: module.entries.count))
            }
            let entry = module.entries[wanted - 1]
            if entry.kind == .soundIcon {
                throw UtterError("Message \(wanted) is the sound icon '\(entry.text)': there is no speech to save.")
            }
            let speaker: Speaker
            do {
                speaker = try Speaker(output: .file(path: path))
            } catch {
                throw UtterError(error.description)
            }
            var utterance = Utterance(text: entry.text)
            utterance.language = entry.language
            var note = ""
            if (try? speaker.voice(named: entry.voice)) != nil {
                utterance.voice = entry.voice
            } else {
                note =
                    " (the voice '\(entry.voice)' is not installed for you: saved with a voice for \(entry.language))"
            }
            for await event in speaker.speak(utterance) {
                if case .cancelled = event { throw UtterError("Rendering message \(wanted) was cut off.") }
            }
            print("Saved \(wanted) to \(path)\(note): \(entry.shownText)")
        }

        static func text(_ entries: [HistoryEntry]) -> String {
            guard !entries.isEmpty else { return "Nothing has been said yet.\n" }
            let width = String(entries.count).count
            return entries.enumerated().map { index, entry in
                let number = String(index + 1)
                let time = TimeOfDay(millisecondsSince1970: entry.time).formatted.prefix(8)
                return String(repeating: " ", count: width - number.count)
                    + "\(number)  \(time)  \(entry.voice)  \(entry.language)  \(entry.shownText)\n"
            }.joined()
        }

        static func json(_ module: HistoryClient.Module) -> String {
            let messages = module.entries.enumerated().map { index, entry -> JSONValue in
                [
                    "number": JSONValue(index + 1), "time": JSONValue(entry.time), "kind": JSONValue(entry.kind.rawValue),
                    "voice": JSONValue(entry.voice), "language": JSONValue(entry.language), "text": JSONValue(entry.text),
                ]
            }
            return JSONWriter.text(of: ["module": JSONValue(module.pid), "messages": JSONValue(messages)]) + "\n"
        }
    }
}

extension HistoryEntry {
    /// The text on one line, a CHAR, KEY or sound icon marked as such.
    var shownText: String {
        let line = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ")
        switch kind {
        case .speak: return line
        case .character: return "[char] \(line)"
        case .key: return "[key] \(line)"
        case .soundIcon: return "[sound icon] \(line)"
        }
    }
}
