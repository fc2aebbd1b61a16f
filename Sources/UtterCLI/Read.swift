import ArgumentParser
import Reading
import Sentences
import System
import UtterKit

extension UtterCommand {
    struct Read: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read a long text aloud, sentence by sentence, from where you stopped.",
            discussion: """
                The file is plain text, or Markdown when its name ends in .md or .markdown; - (or no \
                file) reads standard input to its end first. On a terminal the sentence being read is shown with \
                the word being heard highlighted. Keys: space pauses and resumes, n and p go to the next \
                and the previous sentence, q (or Ctrl-C) quits. In a pipe each sentence is printed as it \
                starts. The place in each file is kept in $XDG_STATE_HOME/utter (~/.local/state/utter) and \
                the next reading starts there; reading to the end forgets it. Without --voice or \
                --language, the text's own language chooses the voice.
                """)

        @OptionGroup var speech: SpeechOptions

        @Option(
            help: ArgumentHelp(
                "Start at sentence n (1 is the first) instead of where the last reading stopped.", valueName: "n"))
        var from: Int?

        @Option(
            name: [.customShort("o"), .long],
            help: "Render to this sound file instead of playing (.wav, .flac, .ogg, .aiff, .au, .caf).")
        var output: String?

        @Argument(help: "The text file to read; - for standard input.")
        var file = "-"

        func validate() throws {
            if let from, from < 1 { throw ValidationError("--from counts sentences from 1.") }
        }

        func run() async throws {
            let text = try ReadingText(file: file)
            let textLanguage = LanguageGuess.language(of: text.readable)
            let splitter = SentenceSplitter(language: speech.language ?? textLanguage ?? "en")
            // A voice or a language given chooses the voice; otherwise the text's language does.
            let guessed = speech.voice == nil && speech.language == nil ? textLanguage : nil
            let sentences: ReadingSentences
            do {
                sentences = ReadingSentences(text: text.readable, ranges: try splitter.sentences(in: text.readable))
            } catch {
                throw UtterError(error.description)
            }
            guard !sentences.isEmpty else { throw UtterError("\(text.name) has nothing to read.") }
            let places = file == "-" || output != nil ? nil : ReadingPlaces(file: file)
            let first: Int
            if let from {
                guard from <= sentences.count else {
                    throw UtterError(
                        "--from \(from): \(text.name) has \(sentences.count) sentence\(sentences.count == 1 ? "" : "s")."
                    )
                }
                first = from - 1
            } else {
                first = places?.position()?.start(for: text.readable, sentenceCount: sentences.count) ?? 0
            }
            let channel = try speech.channel(output: output)
            let speech = speech
            let reader = Reader(
                channel: channel, sentences: sentences, places: places, hash: ReadingPosition.hash(text.readable),
                interactive: output == nil && Terminal.isInteractive
            ) { sentence in
                var utterance = Utterance(text: sentence)
                speech.apply(to: &utterance)
                if let guessed { utterance.language = guessed }
                return utterance
            }
            try await reader.read(from: first)
        }
    }
}
