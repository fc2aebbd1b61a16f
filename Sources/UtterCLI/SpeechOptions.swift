import ArgumentParser
import Logging
import SpeechDispatcherClient
import UtterKit

/// The options every speaking command shares: who speaks, how fast, and where to.
struct SpeechOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "The voice, by name or identifier (see 'utter voices').")
    var voice: String?

    @Option(name: .shortAndLong, help: "The language, when no voice is given (e.g. de, en-GB, ja, zh).")
    var language: String?

    @Option(
        name: .shortAndLong,
        help: "Speech rate: slow, medium, fast, or from -100 to 100 (0: the voice's normal rate).")
    var rate: SpeechRate = .medium

    @Option(name: .long, help: "The ALSA device to play on (default: the session's sound server, else ALSA's default).")
    var device: String?

    @Flag(
        name: .long,
        help: "Speak through your speech-dispatcher (and its default module) instead of Utter's own engine.")
    var server = false

    @Option(name: .long, help: "With --server, the speech-dispatcher output module to speak with (e.g. utter, espeak-ng).")
    var module: String?

    @Flag(
        name: .long,
        help: """
            One voice for all the text: no switching to a voice of another language for text in \
            a script the voice cannot read (a Japanese name in English).
            """)
    var noSwitch = false

    func validate() throws {
        if module != nil && !server { throw ValidationError("--module needs --server.") }
        if noSwitch && server {
            throw ValidationError("--no-switch is for Utter's own engine; with --server, utter.conf's LanguageSwitching decides.")
        }
    }

    /// What to speak through: a file when `output` is given, else the device or, with `--server`,
    /// speech-dispatcher. The voice is checked here, so that a wrong name is an error, not silence.
    func channel(output: String?) throws -> any SpeechChannel {
        if server {
            if output != nil {
                throw UtterError("-o cannot be used with --server: speech-dispatcher plays speech, it does not render files.")
            }
            do {
                return try SpeechDispatcherChannel(module: module)
            } catch {
                throw UtterError("Cannot reach your speech-dispatcher: \(error.description)")
            }
        }
        do {
            // Notices (underruns on a busy machine) are for a module's log, not for the user's
            // terminal, where they would break into the words shown: warnings and errors only.
            var logger = Logger(label: "utter")
            logger.logLevel = .warning
            let speaker = try Speaker(
                output: output.map { .file(path: $0) } ?? device.map { .device($0) } ?? .session, logger: logger)
            if let voice { _ = try speaker.voice(named: voice) }
            return speaker
        } catch {
            throw UtterError(error.description)
        }
    }

    /// Sets the voice, language and rate chosen on the command line.
    func apply(to utterance: inout Utterance) {
        utterance.voice = voice
        utterance.language = language
        utterance.rate = rate.utteranceRate
        if noSwitch { utterance.languageSwitching = false }
    }
}

/// `--rate`: a preset or a number on speech-dispatcher's scale.
enum SpeechRate: Equatable, ExpressibleByArgument {
    case slow, medium, fast
    case value(Int)

    init?(argument: String) {
        switch argument.lowercased() {
        case "slow": self = .slow
        case "medium", "normal": self = .medium
        case "fast": self = .fast
        default:
            guard let number = Int(argument), (-100...100).contains(number) else { return nil }
            self = .value(number)
        }
    }

    var defaultValueDescription: String {
        switch self {
        case .slow: "slow"
        case .medium: "medium"
        case .fast: "fast"
        case .value(let number): "\(number)"
        }
    }

    /// On -100…100.
    var value: Int {
        switch self {
        case .slow: -35
        case .medium: 0
        case .fast: 40
        case .value(let number): number
        }
    }

    /// On AVSpeechUtterance's scale, which ``Utterance`` uses: 0.5 is normal.
    var utteranceRate: Double { 0.5 + Double(value) / 200 }
}
