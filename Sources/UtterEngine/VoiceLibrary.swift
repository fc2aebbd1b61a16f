package import Configuration
package import Logging
package import RegularFiles
import System
package import Voices

/// Finds the clip voices installed in voice folders and makes them voices the catalogue offers.
///
/// A voice is a folder holding a manifest, `voice.conf` (see `ClipVoiceManifest`), and its clips.
/// A voice folder is either such a folder itself or holds them as subfolders. Every problem is
/// logged with the file and line it is in; a voice that cannot be used is left out with one line
/// saying why, and the other voices are unaffected.
package enum VoiceLibrary {
    /// The manifest's file name inside a voice's folder.
    package static let manifestName = "voice.conf"

    /// Where voices are installed: `utter/voices` in the user's data folder (`$XDG_DATA_HOME`,
    /// else `~/.local/share`), then in each of `$XDG_DATA_DIRS` (`/usr/local/share`, `/usr/share`).
    package static func standardFolders(environment: (String) -> String?) -> [String] {
        BaseDirectories.data("utter/voices", environment: environment)
    }

    /// The folders voices are read from: the configured ones, else the standard ones.
    package static func folders(configuration: UtterConfiguration) -> [String] {
        configuration.voiceFolders.isEmpty
            ? standardFolders(environment: Environment.value) : configuration.voiceFolders
    }

    /// The clip voices in the configured folders, or in the standard ones when none is configured.
    package static func clipVoices(
        configuration: UtterConfiguration, espeakVoices: [Voice], logger: Logger
    ) -> [Voice] {
        clipVoices(
            in: folders(configuration: configuration), espeakVoices: espeakVoices,
            configured: !configuration.voiceFolders.isEmpty, logger: logger)
    }

    /// The time and size of a file or folder, or that it is not there.
    package struct Stamp: Hashable, Sendable {
        var path: String
        var seconds: Int
        var nanoseconds: Int
        var size: Int
    }

    /// What `folders` hold as far as times and sizes tell: the folders, their voice folders and
    /// manifests. Installing, removing or editing a voice changes it, and so does a change of
    /// permissions (the status change time is stamped, not the modification time); reading it
    /// costs a few `stat` calls per voice.
    package static func signature(of folders: [String]) -> [Stamp] {
        var stamps: [Stamp] = []
        func add(_ path: String) {
            if let stamp = FileSystem.changeStamp(of: path) {
                stamps.append(
                    Stamp(path: path, seconds: stamp.seconds, nanoseconds: stamp.nanoseconds, size: stamp.size))
            } else {
                stamps.append(Stamp(path: path, seconds: -1, nanoseconds: 0, size: -1))
            }
        }
        for folder in folders {
            add(folder)
            add("\(folder)/\(manifestName)")
            guard case .success(let names) = subfolders(of: folder) else { continue }
            for name in names {
                add("\(folder)/\(name)")
                add("\(folder)/\(name)/\(manifestName)")
            }
        }
        return stamps
    }

    /// The clip voices in `folders`. `espeakVoices` are the voices a fallback may name; names and
    /// identifiers already taken by them (or by an earlier clip voice) are refused.
    /// `configured` says whether the folders were named by the administrator, whose missing
    /// folder deserves a warning, where a missing standard folder is normal.
    package static func clipVoices(
        in folders: [String], espeakVoices: [Voice], configured: Bool, logger: Logger
    ) -> [Voice] {
        let espeak = VoiceCatalogue(voices: espeakVoices)
        var taken = Set(espeakVoices.flatMap { [$0.name.lowercased(), $0.identifier.lowercased()] })
        var voices: [Voice] = []
        for folder in folders {
            let voiceFolders: [String]
            if FileSystem.isRegularFile("\(folder)/\(manifestName)") {
                voiceFolders = [folder]
            } else {
                switch subfolders(of: folder) {
                case .success(let names):
                    voiceFolders = names.map { "\(folder)/\($0)" }.filter { mayHoldVoice($0) }
                case .failure(let error):
                    if configured || error != .noSuchFile {
                        logger.warning("voice folder \(folder) cannot be read (\(error)); its voices are left out")
                    }
                    continue
                }
            }
            for voiceFolder in voiceFolders {
                guard let voice = clipVoice(at: voiceFolder, espeak: espeak, logger: logger) else { continue }
                guard !taken.contains(voice.name.lowercased()), !taken.contains(voice.identifier.lowercased())
                else {
                    logger.warning(
                        "clip voice at \(voiceFolder) left out: its name \(voice.name.debugDescription) or identifier \(voice.identifier.debugDescription) is taken by another voice"
                    )
                    continue
                }
                taken.formUnion([voice.name.lowercased(), voice.identifier.lowercased()])
                voices.append(voice)
            }
        }
        return voices
    }

    /// The voice whose manifest is in `folder`, or nil (logged).
    static func clipVoice(at folder: String, espeak: VoiceCatalogue, logger: Logger) -> Voice? {
        let path = "\(folder)/\(manifestName)"
        let text: String
        switch readTextFile(path) {
        case .success(let read): text = read
        case .failure(let error):
            logger.warning("clip voice at \(folder) left out: \(path) cannot be read (\(error))")
            return nil
        }
        let (parsed, issues) = ClipVoiceManifest.parse(text)
        for issue in issues { logger.warning("\(path): \(issue)") }
        let manifest: ClipVoiceManifest
        switch parsed {
        case .success(let value): manifest = value
        case .failure(let failure):
            logger.warning("clip voice at \(folder) left out: \(path): \(failure)")
            return nil
        }
        func languages(_ tags: [String]) -> [Voice.Language] {
            tags.compactMap { text in
                guard let tag = LanguageTag(text) else {
                    logger.warning("\(path): \(text.debugDescription) is not a language tag, skipped")
                    return nil
                }
                // After every espeak-ng voice of the language: a clip voice is chosen by name.
                return Voice.Language(tag: tag, priority: 100)
            }
        }
        let primary = languages(manifest.primaryLanguages)
        guard let language = primary.first else {
            logger.warning("clip voice at \(folder) left out: \(path): no valid PrimaryLanguage")
            return nil
        }
        var phrases: [(phrase: String, clip: String)] = []
        for clip in manifest.clips {
            switch clipFileProblem(clip.file, in: folder) {
            case .outsideFolder:
                logger.warning(
                    "\(path): line \(clip.lineNumber): clip \(clip.file.debugDescription) is not inside the voice's folder, skipped"
                )
            case .unreadable(let problem):
                logger.warning(
                    "\(path): line \(clip.lineNumber): clip \(clip.file.debugDescription) cannot be read (\(problem)); \(clip.phrase.debugDescription) is spoken by the fallback voice"
                )
            case nil:
                phrases.append((clip.phrase, "\(folder)/\(clip.file)"))
            }
        }
        let book = PhraseBook(phrases)
        let fallback = fallbackEngineName(
            manifest.fallback, language: language.tag, espeak: espeak, path: path, logger: logger)
        logger.notice(
            "clip voice \(manifest.name.debugDescription) from \(folder): \(book.count) phrases, fallback \(fallback ?? "none")"
        )
        return Voice(
            name: manifest.name, identifier: manifest.identifier, primaryLanguages: primary,
            supportedLanguages: languages(manifest.supportedLanguages),
            kind: .clips(ClipVoice(folder: folder, phrases: book, fallbackEngineName: fallback)))
    }

    private static func fallbackEngineName(
        _ fallback: ClipVoiceManifest.Fallback, language: LanguageTag, espeak: VoiceCatalogue, path: String,
        logger: Logger
    ) -> String? {
        switch fallback {
        case .none:
            return nil
        case .espeak(let name):
            if let voice = espeakVoice(named: name, in: espeak) { return engineName(voice) }
            logger.warning(
                "\(path): fallback voice \(name.debugDescription) is not an espeak-ng voice here; using the best one for \(language)"
            )
        case .languageDefault:
            break
        }
        guard
            let (voice, reason) = espeak.select(
                synthesisVoice: nil, language: language.description, defaultVoice: nil, defaultLanguage: "en")
        else { return nil }
        if reason != .language && reason != .primaryLanguage {
            logger.warning(
                "\(path): no espeak-ng voice speaks \(language); text without clips is spoken by \(voice.name)")
        }
        return engineName(voice)
    }

    /// The espeak-ng voice a manifest's `Fallback` names: by a name `utter voices` lists, its
    /// identifier, or espeak-ng's own name (`en-us`).
    package static func espeakVoice(named name: String, in espeak: VoiceCatalogue) -> Voice? {
        espeak.voice(named: name) ?? espeak.voices.first { engineName($0)?.lowercased() == name.lowercased() }
    }

    private static func engineName(_ voice: Voice) -> String? {
        if case .espeak(let name) = voice.kind { return name }
        return nil
    }

    /// Why a manifest's clip file cannot be played.
    package enum ClipFileProblem: Equatable {
        /// An absolute path or one through `..`: a manifest only reaches into its own folder.
        case outsideFolder
        case unreadable(FileError)
    }

    /// Why the clip `file` (as a manifest names it) of the voice in `folder` cannot be opened, or nil.
    package static func clipFileProblem(_ file: String, in folder: String) -> ClipFileProblem? {
        if file.hasPrefix("/") || file.split(separator: "/").contains("..") { return .outsideFolder }
        return unreadability(of: "\(folder)/\(file)").map(ClipFileProblem.unreadable)
    }

    /// Whether `folder` holds a manifest, or one that cannot be looked at: a voice whose folder
    /// is closed to us is reported (by `clipVoice`), not silently missing.
    private static func mayHoldVoice(_ folder: String) -> Bool {
        switch FileSystem.kind(of: "\(folder)/\(manifestName)") {
        case .success(let kind): kind == .regularFile
        case .failure(let error): error == .permissionDenied
        }
    }

    /// Why `path` is not a regular file this process may read, or nil when it is.
    private static func unreadability(of path: String) -> FileError? {
        switch openRegularFile(path, for: .reading) {
        case .success(let file):
            FileDescriptor(taking: file.descriptor).close()
            return nil
        case .failure(let error):
            return error
        }
    }

    /// The names of the folders inside `folder`, sorted, but for hidden ones: `utter voice create`
    /// makes a voice in a hidden folder beside its place, so that half a voice is never read.
    private static func subfolders(of folder: String) -> Result<[String], Errno> {
        Result { () throws(Errno) in try FileSystem.subdirectories(of: folder).filter { !$0.hasPrefix(".") } }
    }
}
