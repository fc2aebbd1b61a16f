import ArgumentParser
import UtterKit

extension UtterCommand {
    struct Say: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Speak text aloud with an Utter voice, or render it to a sound file.",
            discussion: """
                Text is SSML when it starts with <speak>; otherwise it is read as plain text. Speech \
                plays on the ALSA device (on a desktop, its sound server) without speech-dispatcher.
                """)

        @Option(name: .shortAndLong, help: "The voice, by name or identifier (see 'utter voices').")
        var voice: String?

        @Option(name: .shortAndLong, help: "The language, when no voice is given (e.g. de, en-GB).")
        var language: String?

        @Option(name: .shortAndLong, help: "Speech rate from -100 to 100 (0: the voice's normal rate).")
        var rate: Int = 0

        @Option(name: .long, help: "The ALSA device to play on.")
        var device: String = "default"

        @Option(
            name: [.customShort("o"), .long],
            help: "Render to this sound file instead of playing (.wav, .flac, .ogg, .aiff, .au, .caf).")
        var output: String?

        @Argument(help: "The text to speak.")
        var text: [String]

        func validate() throws {
            guard (-100...100).contains(rate) else { throw ValidationError("--rate must be from -100 to 100.") }
            guard !text.joined().isEmpty else { throw ValidationError("Give the text to speak.") }
        }

        func run() async throws {
            let speaker: Speaker
            do {
                speaker = try Speaker(output: output.map { .file(path: $0) } ?? .device(device))
                if let voice { _ = try speaker.voice(named: voice) }
            } catch {
                throw UtterError(error.description)
            }
            let joined = text.joined(separator: " ")
            var utterance = joined.hasPrefix("<speak") ? Utterance(ssml: joined) : Utterance(text: joined)
            utterance.voice = voice
            utterance.language = language
            utterance.rate = 0.5 + Double(rate) / 200
            for await event in speaker.speak(utterance) {
                if case .cancelled = event { throw UtterError("Speech was cut off.") }
            }
        }
    }
}
