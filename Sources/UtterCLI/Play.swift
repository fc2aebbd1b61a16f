import ArgumentParser
import Scenario
import System
import UtterKit

extension UtterCommand {
    struct Play: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read a talk aloud from a scenario file, or render it to a sound file.",
            discussion: """
                The scenario is the JSON that iOS presentation apps built on AVSpeechSynthesizer write: \
                default language, rate (0 to 1, 0.5 normal), pitch (0.5 to 2), volume, preDelay and \
                postDelay; `actions` (speak, wait, pause, changeSlidePage) and up to 9 `presets`. A \
                changeSlidePage's page is a page index as the app counts it (0 for the first slide), \
                "next" or "previous"; the status line shows both the slide's number and its index. A \
                scenario with problems is refused before anything is spoken, each problem listed.
                Keys while playing: space pauses and goes on (also after a pause action), 1 to 9 speak \
                a preset while paused, q or Ctrl-C stops. Without a terminal there are no keys: pause \
                actions are passed over and each step is a line of output.
                """)

        @OptionGroup var speech: SpeechOptions

        @Option(
            name: [.customShort("o"), .long],
            help: """
                Render the whole scenario to this sound file (.wav, .flac, .ogg, .aiff, .au, .caf): \
                pauses passed over, waits as silence.
                """)
        var output: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                """
                A shell command run at each slide change: {page} is replaced by the slide's number \
                counted from 1, {index} by its page index counted from 0 (as the scenario's page).
                """,
                valueName: "command"))
        var onSlide: String?

        @Argument(help: "The scenario file (JSON).")
        var scenario: String

        func validate() throws {
            if output != nil && onSlide != nil {
                throw ValidationError(
                    "--on-slide follows a talk as it is played, and -o plays nothing: use one of them.")
            }
        }

        func run() async throws {
            let scenario = try Self.load(scenario)
            if let output {
                try await render(scenario, to: output)
            } else {
                let channel = try speech.channel(output: nil)
                var keys: KeyReader?
                if Terminal.isInteractive {
                    do {
                        keys = try KeyReader()
                    } catch {
                        throw UtterError("Cannot read keys from the terminal: \(error).")
                    }
                }
                var performance = Performance(
                    scenario: scenario, channel: channel, speech: speech, slides: onSlide.map(SlideCommand.init),
                    keys: keys)
                await performance.run()
            }
        }

        /// The scenario at `path`, or an error listing every problem with it.
        static func load(_ path: String) throws -> Scenario {
            let bytes: [UInt8]
            do {
                bytes = try FileSystem.contents(of: path)
            } catch {
                throw UtterError("Cannot read the scenario '\(path)': \(error).")
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw UtterError("The scenario '\(path)' is not UTF-8 text; save it as UTF-8 JSON.")
            }
            do {
                return try Scenario(parsing: text)
            } catch {
                let count: String
                switch error {
                case .syntax: count = "it is not valid JSON"
                case .invalid(let problems): count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
                }
                throw UtterError("The scenario '\(path)' cannot be played (\(count)); nothing was spoken.\n\(error)")
            }
        }

        /// The utterance for one of the scenario's speeches, with the command line's voice and language.
        static func utterance(_ speech: Passage, options: SpeechOptions) -> Utterance {
            var utterance = Utterance(text: speech.text)
            options.apply(to: &utterance)
            let prosody = speech.prosody
            utterance.language = prosody.language ?? options.language
            // --rate moves the scenario's rates all together; medium leaves them as written.
            utterance.rate = min(max(prosody.rate + utterance.rate - 0.5, 0), 1)
            utterance.pitch = prosody.pitch
            utterance.volume = prosody.volume
            utterance.preDelay = prosody.preDelay
            utterance.postDelay = prosody.postDelay
            return utterance
        }
    }
}
