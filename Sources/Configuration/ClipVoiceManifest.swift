/// A clip voice's manifest (`voice.conf` in the voice's folder), in the dotconf syntax of the
/// module's own configuration:
///
///     Name "Greeter"
///     Identifier "org.example.greeter"
///     PrimaryLanguage "en-US"
///     SupportedLanguages "en-GB" "en-AU"
///     Fallback "espeak-ng" "en-us"
///     Clip "hello" "hello.flac"
///     Clip "good morning" "good-morning.wav"
public struct ClipVoiceManifest: Equatable, Sendable {
    /// Who speaks what no clip covers.
    public enum Fallback: Equatable, Sendable {
        /// The best espeak-ng voice for the voice's first primary language.
        case languageDefault
        /// An espeak-ng voice by name (as `utter voices` lists it, its identifier or espeak-ng's own name).
        case espeak(String)
        /// Nobody: only the clips are heard.
        case none
    }

    /// One `Clip` line.
    public struct Clip: Equatable, Sendable {
        public var phrase: String
        /// The sound file, relative to the voice's folder.
        public var file: String
        public var lineNumber: Int

        public init(phrase: String, file: String, lineNumber: Int) {
            self.phrase = phrase
            self.file = file
            self.lineNumber = lineNumber
        }
    }

    public var name: String
    /// Defaults to `clips:` and the name.
    public var identifier: String
    /// BCP 47 tags as written; at least one.
    public var primaryLanguages: [String]
    public var supportedLanguages: [String] = []
    public var fallback: Fallback = .languageDefault
    public var clips: [Clip] = []

    /// Why a manifest as a whole cannot be used.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String

        public init(description: String) { self.description = description }
    }

    /// The manifest in `text` and the lines that were skipped, or why there is no usable voice.
    public static func parse(
        _ text: String
    ) -> (manifest: Result<ClipVoiceManifest, Failure>, issues: [ConfigurationIssue]) {
        let (entries, syntaxIssues) = DotconfParser.parse(text)
        var issues = syntaxIssues
        var name: String?
        var identifier: String?
        var primary: [String] = []
        var supported: [String] = []
        var fallback = Fallback.languageDefault
        var clips: [Clip] = []
        for entry in entries {
            let arguments = entry.arguments
            func skip(_ message: String) {
                issues.append(ConfigurationIssue(lineNumber: entry.lineNumber, message: message))
            }
            func expected(_ what: String) {
                skip("\(entry.key) needs \(what), got \(arguments.map(\.debugDescription).joined(separator: " "))")
            }
            switch entry.key.lowercased() {
            case "name":
                guard arguments.count == 1, let value = visible(arguments[0]) else {
                    expected("one name")
                    continue
                }
                if name != nil { skip("a second Name; keeping the first") } else { name = value }
            case "identifier":
                guard arguments.count == 1, let value = visible(arguments[0]) else {
                    expected("one identifier")
                    continue
                }
                if identifier != nil { skip("a second Identifier; keeping the first") } else { identifier = value }
            case "primarylanguage", "primarylanguages":
                guard !arguments.isEmpty else {
                    expected("one or more language tags")
                    continue
                }
                primary += arguments
            case "supportedlanguage", "supportedlanguages":
                guard !arguments.isEmpty else {
                    expected("one or more language tags")
                    continue
                }
                supported += arguments
            case "fallback":
                if arguments.count == 1, arguments[0].lowercased() == "none" {
                    fallback = .none
                } else if arguments.count == 2, arguments[0].lowercased() == "espeak-ng", !arguments[1].isEmpty {
                    fallback = .espeak(arguments[1])
                } else {
                    expected("\"espeak-ng\" and a voice, or none")
                }
            case "clip":
                guard arguments.count == 2, visible(arguments[0]) != nil, !arguments[1].isEmpty else {
                    expected("a phrase and a sound file")
                    continue
                }
                clips.append(Clip(phrase: arguments[0], file: arguments[1], lineNumber: entry.lineNumber))
            default:
                skip("unknown setting \(entry.key.debugDescription), skipped")
            }
        }
        // Syntax problems were found before the settings were read: tell them in file order.
        issues.sort { $0.lineNumber < $1.lineNumber }
        guard let name else { return (.failure(Failure(description: "it has no Name")), issues) }
        guard !primary.isEmpty else {
            return (.failure(Failure(description: "it has no PrimaryLanguage")), issues)
        }
        var manifest = ClipVoiceManifest(
            name: name, identifier: identifier ?? "clips:\(name)", primaryLanguages: primary)
        manifest.supportedLanguages = supported
        manifest.fallback = fallback
        manifest.clips = clips
        return (.success(manifest), issues)
    }

    public init(name: String, identifier: String, primaryLanguages: [String]) {
        self.name = name
        self.identifier = identifier
        self.primaryLanguages = primaryLanguages
    }

    /// `value` without surrounding white space, or nil when nothing else is left (a name shown
    /// in a menu, a phrase to match, must say something) or when it holds a control character
    /// (a tab would split a LIST VOICES line).
    private static func visible(_ value: String) -> String? {
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        let trimmed = value.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }
        return trimmed.isEmpty ? nil : String(trimmed.reversed())
    }
}
