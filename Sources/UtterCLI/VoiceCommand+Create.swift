import ArgumentParser
import Configuration
import RegularFiles
import SoundFiles
import System
import UtterEngine
import UtterKit
import Voices

extension UtterCommand.VoiceCommand {
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a clip voice: each phrase of a file recorded by a voice, or taken from recordings.",
            discussion: """
                The phrases file holds one phrase a line; blank lines and lines starting with # are \
                skipped. With --clips, a phrase's recording is the file a tab after it names (relative \
                to the folder), else the one named by its slug: 'Good morning!' is good-morning.wav \
                (or .flac, .ogg, .oga, .opus, .aiff, .aif, .au, .caf, .mp3). Without --clips each phrase \
                is spoken by --with-voice (else the voice for --language) into clips/<slug>.flac. \
                The voice is made in a hidden folder and moved into place when complete; a running \
                sd_utter lists it at once.
                """)

        @Argument(help: "The voice's name, as clients list and select it; also its folder's name.")
        var name: String

        @Option(name: .shortAndLong, help: "The voice's language (BCP 47, e.g. en-US).")
        var language: String

        @Option(help: "Further languages it is listed under, separated by commas.")
        var supports: String?

        @Option(help: "The file of phrases, one a line.")
        var phrases: String

        @Option(help: "The voice that speaks the phrases, and what no clip covers (see 'utter voices').")
        var withVoice: String?

        @Option(help: "The folder of recordings to take the clips from.")
        var clips: String?

        @Option(help: "The format of recorded clips: flac or wav.")
        var format: String = "flac"

        @Option(help: "The voice's folder. Default: ~/.local/share/utter/voices/NAME.")
        var into: String?

        @Flag(help: "Replace the voice's folder if it exists.")
        var force = false

        func validate() throws {
            let trimmed = name.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }
            guard !name.isEmpty, trimmed.count == name.count, name.count <= 100, !name.hasPrefix("."),
                !name.contains("/"), !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw ValidationError(
                    "'\(name)' cannot name a voice: use 1 to 100 characters, no '/' or control characters, no '.' first and no spaces at either end."
                )
            }
            for tag in [language] + supportedLanguages where LanguageTag(tag) == nil {
                throw ValidationError("'\(tag)' is not a BCP 47 language tag; try one like 'en-US' or 'de'.")
            }
            guard withVoice == nil || clips == nil else {
                throw ValidationError(
                    "Give --with-voice or --clips, not both: clips are either spoken by a voice or copied from recordings."
                )
            }
            guard format == "flac" || format == "wav" else {
                throw ValidationError("--format must be flac or wav.")
            }
        }

        private var supportedLanguages: [String] {
            (supports ?? "").split(separator: ",").map { String($0.filter { !$0.isWhitespace }) }
        }

        func run() async throws {
            let folders = UserFolders()
            let target = into ?? "\(folders.dataHome)/utter/voices/\(name)"
            let phraseText: String
            switch readTextFile(phrases) {
            case .success(let text): phraseText = text
            case .failure(let error): throw UtterError("Cannot read the phrases file '\(phrases)': \(error).")
            }
            let (list, listProblems) = PhraseList.parse(phraseText)
            var problems = listProblems.map { (line: $0.lineNumber, message: $0.message) }
            var recordings: [String] = []
            if let clips {
                for entry in list.entries {
                    switch recording(of: entry, in: clips) {
                    case .success(let path): recordings.append(path)
                    case .failure(let problem): problems.append((entry.lineNumber, problem.description))
                    }
                }
            } else {
                for entry in list.entries where entry.recording != nil {
                    problems.append(
                        (entry.lineNumber, "names a recording, but the clips are spoken; use --clips FOLDER"))
                }
            }
            var lines = problems.sorted { $0.line < $1.line }.map { "\(phrases):\($0.line): \($0.message)" }
            if list.entries.isEmpty && problems.isEmpty { lines.append("\(phrases) holds no phrase") }
            let replacing = FileSystem.exists(target)
            if replacing && !force {
                lines.append("\(folders.shown(target)) exists; give --force to replace it")
            }
            let installed: [VoiceDescription]
            do {
                installed = try Speaker.installedVoices()
            } catch {
                throw UtterError(error.description)
            }
            // The voice library leaves out a voice whose name or identifier another voice has.
            let wanted = [name.lowercased(), "clips:\(name)".lowercased()]
            if let taken = installed.first(where: {
                ($0.kind == .espeakNG || !replacing)
                    && (wanted.contains($0.name.lowercased()) || wanted.contains($0.identifier.lowercased()))
            }) {
                lines.append(
                    "the \(taken.kind == .espeakNG ? "espeak-ng" : "clip") voice \(taken.name.debugDescription) (\(taken.identifier)) has that name; choose another"
                )
            }
            guard lines.isEmpty else {
                throw UtterError("No voice was made:\n" + lines.joined(separator: "\n"))
            }

            var manifest = ClipVoiceManifest(
                name: name, identifier: "clips:\(name)", primaryLanguages: [LanguageTag(language)!.description])
            manifest.supportedLanguages = supportedLanguages.map { LanguageTag($0)!.description }
            let parent = FileSystem.parent(of: target)
            let building: String
            do {
                try FileSystem.createDirectories(parent)
                building = try FileSystem.makeTemporaryDirectory(prefix: "\(parent)/.\(name).utter-new-")
                try FileSystem.createDirectories(building + "/clips")
            } catch {
                throw UtterError("Cannot make a folder in \(folders.shown(parent)): \(error).")
            }
            let recordedBy: String
            do {
                if let clips {
                    recordedBy = "copied from \(clips)"
                    for (entry, recording) in zip(list.entries, recordings) {
                        let file = "clips/\(entry.slug).\(soundExtension(of: recording))"
                        do {
                            try FileSystem.copy(recording, to: "\(building)/\(file)", mode: 0o644)
                        } catch {
                            throw UtterError("Cannot copy \(recording): \(error).")
                        }
                        manifest.clips.append(.init(phrase: entry.phrase, file: file, lineNumber: 0))
                    }
                } else {
                    let voice = try await speak(list.entries, into: building)
                    manifest.clips = list.entries.map {
                        .init(phrase: $0.phrase, file: "clips/\($0.slug).\(format)", lineNumber: 0)
                    }
                    if let voice { manifest.fallback = .espeak(voice) }
                    recordedBy = "spoken by " + (voice ?? "espeak-ng's voice for \(manifest.primaryLanguages[0])")
                }
                try install(manifest, from: building, at: target)
            } catch {
                try? FileSystem.removeTree(building)
                throw error
            }
            let quotedName = shellQuoted(name)
            print(
                """
                Made the clip voice \(quotedName) (\((manifest.primaryLanguages + manifest.supportedLanguages).joined(separator: ", "))) \
                in \(folders.shown(target)): \(counted(manifest.clips.count, "clip")) \(recordedBy).
                Hear it:  spd-say -o utter -y \(quotedName) \(shellQuoted(list.entries[0].phrase))
                Check it: utter voice check \(shellQuoted(target))
                """)
        }

        /// Writes the manifest into `building` and moves the folder to `target`, replacing what is there.
        private func install(_ manifest: ClipVoiceManifest, from building: String, at target: String) throws {
            do {
                try FileSystem.write(Array(manifest.text.utf8), to: "\(building)/\(VoiceLibrary.manifestName)")
                // mkdtemp's folder is the user's alone; a voice is read by speech-dispatcher's user too.
                try FileSystem.setMode(building, 0o755)
                try FileSystem.setMode(building + "/clips", 0o755)
                try moveVoiceFolder(building, to: target, name: name)
            } catch {
                throw UtterError("Cannot put the voice in \(target): \(error).")
            }
        }
    }
}

/// The lowercased extension of a file name (`wav` for `Take 1.WAV`).
private func soundExtension(of path: String) -> String {
    path.split(separator: "/").last.flatMap { $0.split(separator: ".").last }.map { $0.lowercased() } ?? ""
}

/// `text` as one shell word: as it is when that is safe, else in single quotes.
private func shellQuoted(_ text: String) -> String {
    let plain =
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./:@%+=,".contains($0)) }
    return plain
        ? text : "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
}
