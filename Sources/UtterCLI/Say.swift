import ArgumentParser
import System
import UtterKit

extension UtterCommand {
    struct Say: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Speak text aloud with an Utter voice, or render it to a sound file.",
            discussion: """
                Text is SSML when it starts with <speak>; otherwise it is read as plain text. Speech \
                plays on the ALSA device (on a desktop, its sound server) without speech-dispatcher, or \
                with --server through your speech-dispatcher.
                """)

        @OptionGroup var speech: SpeechOptions

        @Flag(
            name: .shortAndLong,
            help: "Show each word as it is heard; in a pipe, one word per line after its time in seconds.")
        var follow = false

        @Option(
            help: ArgumentHelp(
                "How --follow writes words: reveal (the text, word by word: a terminal's default), words (a line per word after its time: a pipe's default), tokens (a line per space-separated token of the text, punctuation kept), json (an object per word: word, utf16 and bytes ranges, time).",
                valueName: "format"))
        var followFormat: WordFollower.Format?

        @Option(
            name: [.customShort("o"), .long],
            help: "Render to this sound file instead of playing (.wav, .flac, .ogg, .aiff, .au, .caf).")
        var output: String?

        @Argument(help: "The text to speak.")
        var text: [String]

        func validate() throws {
            guard !text.joined().isEmpty else { throw ValidationError("Give the text to speak.") }
            if (follow || followFormat != nil) && output != nil {
                throw ValidationError("--follow shows words as they are heard, and -o plays nothing: use one of them.")
            }
        }

        func run() async throws {
            let channel = try speech.channel(output: output)
            let joined = text.joined(separator: " ")
            var utterance = joined.hasPrefix("<speak") ? Utterance(ssml: joined) : Utterance(text: joined)
            speech.apply(to: &utterance)
            let follow = follow || followFormat != nil
            var follower = WordFollower(text: utterance.text, format: followFormat, interactive: Terminal.isInteractive)
            for await event in channel.speak(utterance) {
                let now = MonotonicClock.now
                switch event {
                case .started: follower.start(at: now)
                case .word(let range): if follow { Terminal.write(follower.heard(range, at: now)) }
                case .finished: if follow { Terminal.write(follower.finish(at: now)) }
                case .cancelled:
                    if follow { Terminal.write(follower.finish(at: now)) }
                    throw UtterError("Speech was cut off.")
                case .mark, .paused, .resumed: break
                }
            }
        }
    }
}
