import ArgumentParser
import UtterKit

extension UtterCommand {
    struct Voices: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: VoiceListing.abstract)

        @OptionGroup var listing: VoiceListing

        func run() throws {
            try listing.printVoices()
        }
    }
}

/// The voice list `utter voices` and `utter voice list` print.
struct VoiceListing: ParsableArguments {
    static let abstract = "List the voices: name, primary language, identifier."

    @Option(name: .shortAndLong, help: "Only voices for this language (BCP 47, e.g. de or en-GB).")
    var language: String?

    func printVoices() throws {
        let voices: [VoiceDescription]
        do {
            voices = try Speaker.installedVoices()
        } catch {
            throw UtterError(error.description)
        }
        let shown = try language.map { language in
            guard let wanted = LanguageMatch(language) else {
                throw ValidationError("'\(language)' is not a language tag; try one like 'de' or 'en-GB'.")
            }
            return voices.filter { wanted.matches([$0.primaryLanguage] + $0.supportedLanguages) }
        } ?? voices
        guard !shown.isEmpty else {
            throw UtterError("No voice speaks '\(language ?? "")'. Run 'utter voices' to see them all.")
        }
        let width = min(48, shown.map(\.name.count).max() ?? 0)
        // A language's default is marked where it has a choice: more than one voice speaks it.
        var speakers: [String: Int] = [:]
        for voice in voices {
            for language in Set([voice.primaryLanguage] + voice.supportedLanguages) { speakers[language, default: 0] += 1 }
        }
        for voice in shown {
            let padding = String(repeating: " ", count: max(1, width - voice.name.count + 2))
            let chosen = voice.defaultLanguages.filter { speakers[$0, default: 0] > 1 }
            let defaults = chosen.isEmpty ? "" : "\t(default for \(chosen.joined(separator: ", ")))"
            print("\(voice.name)\(padding)\(voice.primaryLanguage)\t\(voice.identifier)\(defaults)")
            if let note = voice.note { print("    (\(note))") }
        }
    }
}

/// A language asked for on the command line: `en` matches `en-GB`, `en-GB` only itself.
struct LanguageMatch {
    let tag: String

    init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(\.isLetter),
            parts.allSatisfy({ !$0.isEmpty && $0.count <= 8 && $0.allSatisfy { $0.isLetter || $0.isNumber } })
        else { return nil }
        tag = text.lowercased()
    }

    func matches(_ languages: [String]) -> Bool {
        languages.contains { language in
            let lowered = language.lowercased()
            return lowered == tag || lowered.hasPrefix(tag + "-")
        }
    }
}
