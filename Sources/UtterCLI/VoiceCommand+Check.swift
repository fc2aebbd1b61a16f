import ArgumentParser
import Configuration
import UtterEngine
import UtterKit
import Voices

extension UtterCommand.VoiceCommand {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a voice's folder: a clip voice's voice.conf and clips, or a neural voice's model (Piper, Kokoro).",
            discussion: """
                Prints every problem, one a line, at its voice.conf line: settings Utter cannot read, \
                language tags that are not BCP 47, a fallback that is no espeak-ng voice, clips that are \
                missing, not sound files libsndfile reads, empty, cut short or silent, and repeated \
                phrases. Sound files no Clip line uses are warnings. The exit status is 1 when there \
                is a problem.
                """)

        @Argument(help: "The voice's folder, the one holding voice.conf.")
        var folder: String

        func run() throws {
            if NeuralVoiceLibrary.model(in: folder) != nil || NeuralVoiceLibrary.kokoroPack(in: folder) != nil {
                let check = NeuralVoiceCheck(folder: folder, configuration: UtterConfiguration())
                for line in check.problems { print(line) }
                for line in check.warnings { print("warning: \(line)") }
                guard check.problems.isEmpty, let summary = check.summary else {
                    print("\(counted(check.problems.count, "problem")) in \(folder)")
                    throw ExitCode(1)
                }
                print("\(folder.split(separator: "/").last ?? "") (\(summary)); no problems")
                return
            }
            let espeakVoices: [Voice]
            do {
                espeakVoices = try VoiceFolderCheck.espeakVoices()
            } catch {
                throw UtterError(error.description)
            }
            let check = VoiceFolderCheck(folder: folder, espeakVoices: espeakVoices)
            for line in check.problems { print(line) }
            for line in check.warnings { print("warning: \(line)") }
            guard check.problems.isEmpty, let manifest = check.manifest else {
                print("\(counted(check.problems.count, "problem")) in \(folder)")
                throw ExitCode(1)
            }
            let languages = (manifest.primaryLanguages + manifest.supportedLanguages).joined(separator: ", ")
            let fallback =
                switch manifest.fallback {
                case .languageDefault: "espeak-ng's voice for \(manifest.primaryLanguages[0])"
                case .espeak(let voice): voice
                case .none: "none"
                }
            let warnings = check.warnings.isEmpty ? "" : " (\(counted(check.warnings.count, "warning")))"
            print(
                "\(manifest.name) (\(languages)): \(counted(manifest.clips.count, "clip")), fallback \(fallback); no problems\(warnings)"
            )
        }
    }
}
