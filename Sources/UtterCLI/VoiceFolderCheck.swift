import Configuration
import RegularFiles
import SoundFiles
import System
import UtterEngine
import UtterKit
import Voices

/// Every problem with the clip voice in a folder, as `utter voice check` prints them: the checks
/// the voice library makes when it reads the voice, and those it leaves to playback (formats,
/// silence), each located at its manifest line.
struct VoiceFolderCheck {
    /// Lines such as `voice.conf:7: clip "x.wav" is missing`, in the manifest's order.
    var problems: [String] {
        located.enumerated().sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }
            .map { problem in
                problem.element.line.map { "\(VoiceLibrary.manifestName):\($0): \(problem.element.message)" }
                    ?? problem.element.message
            }
    }
    private var located: [(line: Int?, message: String)] = []
    /// What works but looks like a mistake: a sound file no `Clip` line uses.
    private(set) var warnings: [String] = []
    /// The manifest, when it could be read at all.
    private(set) var manifest: ClipVoiceManifest?

    /// The sound file extensions a clip, or a recording for one, is looked for with.
    static let soundExtensions = ["wav", "flac", "ogg", "oga", "opus", "aiff", "aif", "au", "caf", "mp3"]

    /// Checks the voice in `folder`; `espeakVoices` are those a fallback may name.
    init(folder: String, espeakVoices: [Voice]) {
        let name = VoiceLibrary.manifestName
        guard FileSystem.isDirectory(folder) else {
            located.append((nil, "\(folder) is not a folder"))
            return
        }
        let text: String
        switch readTextFile("\(folder)/\(name)") {
        case .success(let read): text = read
        case .failure(let error):
            located.append((nil, "\(name) cannot be read (\(error))"))
            return
        }
        let (parsed, issues) = ClipVoiceManifest.parse(text)
        located += issues.map { ($0.lineNumber, $0.message) }
        let manifest: ClipVoiceManifest
        switch parsed {
        case .success(let value): manifest = value
        case .failure(let failure):
            located.append((nil, "\(name): \(failure)"))
            return
        }
        self.manifest = manifest
        let entries = DotconfParser.parse(text).entries
        /// Notes a problem with a setting: at the first line whose key starts with `key` (and holds `value`).
        func problem(at key: String, holding value: String? = nil, _ message: String) {
            let entry = entries.first {
                $0.key.lowercased().hasPrefix(key) && (value.map($0.arguments.contains) ?? true)
            }
            located.append((entry?.lineNumber, message))
        }

        for tag in manifest.primaryLanguages where LanguageTag(tag) == nil {
            problem(at: "primarylanguage", holding: tag, "\(tag.debugDescription) is not a BCP 47 language tag")
        }
        for tag in manifest.supportedLanguages where LanguageTag(tag) == nil {
            problem(at: "supportedlanguage", holding: tag, "\(tag.debugDescription) is not a BCP 47 language tag")
        }
        let espeak = VoiceCatalogue(voices: espeakVoices)
        if espeak.voice(named: manifest.name) != nil {
            problem(at: "name", "\(manifest.name.debugDescription) is an espeak-ng voice's name; choose another")
        }
        if espeak.voice(named: manifest.identifier) != nil {
            problem(
                at: "identifier",
                "\(manifest.identifier.debugDescription) is an espeak-ng voice's identifier; choose another")
        }
        if case .espeak(let fallback) = manifest.fallback, VoiceLibrary.espeakVoice(named: fallback, in: espeak) == nil
        {
            problem(
                at: "fallback",
                "fallback voice \(fallback.debugDescription) is not an espeak-ng voice (see 'utter voices')")
        }

        var lineByKey: [String: Int] = [:]
        for clip in manifest.clips {
            func problem(_ message: String) { located.append((clip.lineNumber, message)) }
            let file = clip.file.debugDescription
            if let key = PhraseBook.matchKey(of: clip.phrase) {
                if let earlier = lineByKey[key] {
                    problem(
                        "\(clip.phrase.debugDescription) is the same phrase as line \(earlier)'s; this clip is never played"
                    )
                } else {
                    lineByKey[key] = clip.lineNumber
                }
            } else {
                problem("\(clip.phrase.debugDescription) has no word to match")
            }
            switch VoiceLibrary.clipFileProblem(clip.file, in: folder) {
            case .outsideFolder: problem("clip \(file) is not inside the voice's folder")
            case .unreadable(let error) where error.isMissing: problem("clip \(file) is missing")
            case .unreadable(let error): problem("clip \(file) cannot be read (\(error))")
            case nil:
                if let sound = Self.soundProblem(at: "\(folder)/\(clip.file)") { problem("clip \(file) \(sound)") }
            }
        }

        let used = Set(manifest.clips.map { Self.normalized($0.file) })
        let files = (try? FileSystem.filesBelow(folder)) ?? []
        for file in files where !used.contains(file) {
            let extensionName = file.split(separator: ".").last.map { $0.lowercased() } ?? ""
            if file.contains("."), Self.soundExtensions.contains(extensionName) {
                warnings.append("\(file) is not used by any Clip line")
            }
        }
    }

    /// Why the sound file at `path` would not do as a clip, as a predicate (`is silent`), or nil
    /// when it plays: libsndfile opens it, it holds audio, and some of it is louder than −60 dBFS.
    static func soundProblem(at path: String) -> String? {
        do throws(SoundFileError) {
            let info = try SoundFileInfo(path: path)
            guard info.frames > 0 else { return "is empty" }
            let clip = try SoundClip.load(path, sampleRate: info.sampleRate)
            if clip.isCutShort { return "is cut short (its header announces more audio than it holds)" }
            // −60 dBFS: quieter than any recording's noise floor, so nothing was recorded.
            if clip.samples.allSatisfy({ abs(Int($0)) < 33 }) { return "is silent" }
            return nil
        } catch {
            return "cannot be played: \(error.reason)"
        }
    }

    /// The espeak-ng voices, which a fallback may name. Fails while a `Speaker` exists in the process.
    static func espeakVoices() throws(SpeakerError) -> [Voice] {
        do {
            return try VoiceEngine().voices()
        } catch {
            throw .engineUnavailable("\(error)")
        }
    }

    /// `file` as `filesBelow` lists it: no `.` or empty parts.
    private static func normalized(_ file: String) -> String {
        file.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }
}
