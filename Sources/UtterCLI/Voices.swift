import ArgumentParser
import Configuration
import Logging
import Speech
import UtterModule
import Voices

extension UtterCommand {
    struct Voices: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the voices, as speech-dispatcher clients see them.")

        @Option(name: .shortAndLong, help: "Only voices for this language (BCP 47, e.g. de or en-GB).")
        var language: String?

        func run() throws {
            let engine = try EspeakEngine()
            let espeakVoices = engine.voices()
            let logSink = LogSink(level: .warning)
            let catalogue = VoiceCatalogue(
                voices: espeakVoices
                    + VoiceLibrary.clipVoices(
                        configuration: UtterConfiguration(), espeakVoices: espeakVoices,
                        logger: logSink.logger(label: "utter")))
            if let language, LanguageTag(language) == nil {
                throw ValidationError("'\(language)' is not a language tag; try one like 'de' or 'en-GB'.")
            }
            let listings = catalogue.listings(language: language)
            guard !listings.isEmpty else {
                throw UtterError("No voice speaks '\(language ?? "")'. Run 'utter voices' to see them all.")
            }
            let width = min(48, listings.map(\.name.count).max() ?? 0)
            for listing in listings {
                let voice = catalogue.voices[listing.voiceIndex]
                let padding = String(repeating: " ", count: max(1, width - listing.name.count + 2))
                print("\(listing.name)\(padding)\(listing.language)\t\(voice.identifier)")
            }
        }
    }
}
