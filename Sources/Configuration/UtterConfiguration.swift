/// The module's settings from `utter.conf`.
public struct UtterConfiguration: Equatable, Sendable {
    /// The voice used when a message names no listed voice and no language matches.
    public var defaultVoice: String?
    /// The language tried before falling back to the first voice, e.g. for `language=c`.
    public var defaultLanguage = "en-US"
    /// `LanguageVoice` lines: language tag → the voice that speaks it when a message names none
    /// (otherwise its best installed voice does: neural, then recorded, then espeak-ng).
    public var languageVoices: [String: String] = [:]
    /// Whether CHAR and KEY with a neural voice may be spoken by the language's espeak-ng voice
    /// when the neural one would be heard later than `neuralEchoMilliseconds` (`NeuralEcho auto`),
    /// or always by the neural voice (`same`).
    public var neuralEchoFallsBack = true
    /// `NeuralEchoMilliseconds`: how late a key or character may be heard on a neural voice.
    public var neuralEchoMilliseconds = 80
    /// How Utter reaches the sound: `auto` picks what the session runs.
    public var audioBackend = AudioBackend.auto
    /// An ALSA device name that overrides `audio_alsa_device` from the server.
    public var audioDevice: String?
    /// ALSA configuration text loaded instead of the system configuration (tests, special setups).
    public var audioConfigurationFile: String?
    /// The ALSA period: the render thread carries out a STOP between two writes, so it bounds how
    /// long a STOP waits (10 ms: STOP to silence 6 ms median on PulseAudio, half of what 20 ms gave).
    public var periodMilliseconds = 10
    /// The device buffer in periods (80 ms by default): the margin against underruns.
    public var bufferPeriods = 8
    /// Seconds without speech after which the audio device is closed (0: never).
    public var audioIdleSeconds = 5
    /// How many messages the module keeps in memory for `utter history` (0: none, and no socket).
    public var historySize = 50
    /// Words a minute at SSIP rate −100, 0 and +100, for every voice kind: espeak-ng takes them as
    /// its speed; clip and neural voices are played `rate / normalRate` times as fast as their own
    /// pace. 450 at +100 is espeak-ng's nominal speed: 534 words ÷ voiced seconds on the paragraph
    /// of `bench/render --rate` (220 at rate 0).
    public var minimumRate = 80
    public var normalRate = 175
    public var maximumRate = 450
    /// What `MaximumRate` accepts: libespeak-ng's own sonic path reaches it (`espeak-ng -s 1500`
    /// speaks 1,870 words ÷ voiced seconds), and clips and neural voices are compressed up to 8 times.
    public static let maximumRates = 300...1500
    /// espeak-ng variant for each voice type (`none` keeps the voice's own sound).
    public var voiceTypeVariants: [String: String] = [
        "male1": "none", "male2": "m3", "male3": "m6",
        "female1": "f1", "female2": "f2", "female3": "f4",
        "child_male": "m7", "child_female": "f5",
    ]
    /// Punctuation read out in `punctuation_mode=some`.
    public var somePunctuation = "@#$%^&*+=_~"
    /// Folders of voices (clip voices and voice settings).
    public var voiceFolders: [String] = []
    /// Folders searched for SOUND_ICON names, in order (Debian's sound-icons package by default).
    public var soundIconFolders = ["/usr/share/sounds/sound-icons"]
    private var hasOwnSoundIconFolders = false
    /// The sound before a spelled capital letter with `cap_let_recogn=icon`: a sound icon name or a path.
    public var capitalIcon = "capital"
    /// How much higher a capital letter is spoken, in percent of the voice's pitch (0: not at all).
    public var capitalPitchRise = 0
    /// The rises `CapitalPitchRise` takes: below 5% espeak-ng has no step that small; above 80%
    /// its pitch scale ends (a normal pitch doubled at most).
    public static let capitalPitchRises = 5...80
    /// Folders of key name tables (`de.conf`…); empty: the standard data folders.
    public var keyNamesFolders: [String] = []
    /// speech-dispatcher's locale folder, whose dictionaries name symbols and emoji per language.
    public var symbolsFolder = "/usr/share/speech-dispatcher/locale"
    /// Log level 0–5 until the server sends LOGLEVEL.
    public var logLevel: Int?
    /// Whether text in a script the voice cannot read is spoken by a voice of its language.
    public var languageSwitching = true
    /// The language of Han text written without kana; nil: Japanese in a Japanese message, else Chinese.
    public var hanLanguage: String?
    /// The language of Latin text inside a message in another script.
    public var latinLanguage = "en"
    /// The ONNX Runtime library neural voices run on (`OnnxRuntimeLibrary`); nil: looked for.
    public var onnxRuntimeLibrary: String?
    /// Threads one neural inference uses (`NeuralThreads`); nil: the cores, at most 4.
    public var neuralThreads: Int?
    /// Neural models kept in memory at once (`NeuralVoicesLoaded`): a Piper model takes about 200 MB.
    public var neuralVoicesLoaded = 1
    /// Seconds a loaded neural model may go unused before it is released (`NeuralIdleSeconds`); 0 never.
    public var neuralIdleSeconds = 600
    /// The MeCab dictionary folder Japanese is read with; nil: the first known one installed.
    public var japaneseDictionary: String?

    public init() {}

    /// Whether an ALSA device is set here (`AudioDevice`, `AudioConfigurationFile`), which
    /// `AudioBackend auto` follows.
    public var asksForALSA: Bool {
        audioDevice != nil || audioConfigurationFile != nil
    }

    /// Reads `text`; bad or unknown lines are reported and skipped, the defaults stay.
    public static func parse(_ text: String) -> (configuration: UtterConfiguration, issues: [ConfigurationIssue]) {
        var configuration = UtterConfiguration()
        let (entries, parseIssues) = DotconfParser.parse(text)
        var issues = parseIssues
        for entry in entries {
            if let problem = configuration.apply(entry) {
                issues.append(ConfigurationIssue(lineNumber: entry.lineNumber, message: problem))
            }
        }
        if configuration.minimumRate > configuration.normalRate
            || configuration.normalRate > configuration.maximumRate
        {
            let defaults = UtterConfiguration()
            issues.append(
                ConfigurationIssue(
                    lineNumber: entries.last { $0.key.lowercased().hasSuffix("rate") }?.lineNumber ?? 0,
                    message: "rates must satisfy MinimumRate ≤ NormalRate ≤ MaximumRate; using "
                        + "\(defaults.minimumRate), \(defaults.normalRate), \(defaults.maximumRate)"))
            configuration.minimumRate = defaults.minimumRate
            configuration.normalRate = defaults.normalRate
            configuration.maximumRate = defaults.maximumRate
        }
        return (configuration, issues)
    }

    /// Applies one entry, returning why it was skipped, if it was.
    private mutating func apply(_ entry: DotconfEntry) -> String? {
        let arguments = entry.arguments
        func single() -> String? { arguments.count == 1 ? arguments[0] : nil }
        func number(_ range: ClosedRange<Int>) -> Int? {
            guard let text = single(), let value = Int(text), range.contains(value) else { return nil }
            return value
        }
        func expected(_ what: String) -> String {
            "\(entry.key) needs \(what), got \(arguments.map(\.debugDescription).joined(separator: " "))"
        }
        switch entry.key.lowercased() {
        case "defaultvoice":
            guard let value = single() else { return expected("one voice name") }
            defaultVoice = value
        case "defaultlanguage":
            guard let value = single(), !value.isEmpty else { return expected("one language tag") }
            defaultLanguage = value
        case "languagevoice":
            let tag = arguments.first.map { String($0.map { $0 == "_" ? "-" : $0 }) } ?? ""
            guard arguments.count == 2, LanguageCode.isTag(tag), !arguments[1].isEmpty else {
                return expected("a language tag and a voice name")
            }
            languageVoices[tag.lowercased()] = arguments[1]
        case "neuralecho":
            guard let choice = single()?.lowercased(), choice == "auto" || choice == "same" else {
                return expected("auto or same")
            }
            neuralEchoFallsBack = choice == "auto"
        case "neuralechomilliseconds":
            guard let value = number(0...10_000) else { return expected("milliseconds from 0 to 10000") }
            neuralEchoMilliseconds = value
        case "languageswitching":
            switch single()?.lowercased() {
            case "auto": languageSwitching = true
            case "off": languageSwitching = false
            default: return expected("auto or off")
            }
        case "hanlanguage":
            guard let value = single(), LanguageCode.isTag(value) else { return expected("one language tag (ja, zh, yue)") }
            hanLanguage = value
        case "onnxruntimelibrary":
            guard let value = single(), !value.isEmpty else { return expected("one library path") }
            onnxRuntimeLibrary = value
        case "neuralthreads":
            guard let value = number(1...64) else { return expected("a number of threads from 1 to 64") }
            neuralThreads = value
        case "neuralvoicesloaded":
            guard let value = number(1...16) else { return expected("a number of models from 1 to 16") }
            neuralVoicesLoaded = value
        case "neuralidleseconds":
            guard let value = number(0...86400) else { return expected("a number of seconds from 0 to 86400") }
            neuralIdleSeconds = value
        case "latinlanguage":
            guard let value = single(), LanguageCode.isTag(value) else { return expected("one language tag (en)") }
            latinLanguage = value
        case "japanesedictionary":
            guard let value = single(), !value.isEmpty else { return expected("one folder path") }
            japaneseDictionary = value
        case "audiobackend":
            guard let value = single(), let backend = AudioBackend(rawValue: value.lowercased()) else {
                return expected("one of " + AudioBackend.allCases.map(\.rawValue).joined(separator: ", "))
            }
            audioBackend = backend
        case "audiodevice":
            guard let value = single(), !value.isEmpty else { return expected("one ALSA device name") }
            audioDevice = value
        case "audioconfigurationfile":
            guard let value = single(), !value.isEmpty else { return expected("one file path") }
            audioConfigurationFile = value
        case "audioperiodmilliseconds":
            guard let value = number(2...500) else { return expected("a number of milliseconds from 2 to 500") }
            periodMilliseconds = value
        case "audiobufferperiods":
            guard let value = number(2...64) else { return expected("a number of periods from 2 to 64") }
            bufferPeriods = value
        case "audioidleseconds":
            guard let value = number(0...3600) else { return expected("a number of seconds from 0 to 3600") }
            audioIdleSeconds = value
        case "historysize":
            guard let value = number(0...10_000) else { return expected("a number of messages from 0 to 10000") }
            historySize = value
        case "maximumrate":
            guard let value = number(Self.maximumRates) else {
                return expected(
                    "words per minute from \(Self.maximumRates.lowerBound) to \(Self.maximumRates.upperBound)")
            }
            maximumRate = value
        case "minimumrate", "normalrate":
            guard let value = number(20...1000) else { return expected("words per minute from 20 to 1000") }
            let rate: WritableKeyPath<UtterConfiguration, Int> =
                switch entry.key.lowercased() {
                case "minimumrate": \.minimumRate
                default: \.normalRate
                }
            self[keyPath: rate] = value
        case "voicetypevariant":
            guard arguments.count == 2 else { return expected("a voice type and an espeak-ng variant") }
            let type = arguments[0].lowercased()
            guard voiceTypeVariants[type] != nil else {
                return
                    "\(arguments[0].debugDescription) is no voice type (male1…male3, female1…female3, child_male, child_female)"
            }
            voiceTypeVariants[type] = arguments[1]
        case "somepunctuation":
            guard let value = single() else { return expected("one string of characters") }
            somePunctuation = value
        case "soundiconfolder":
            guard let value = single(), !value.isEmpty else { return expected("one folder path") }
            // The first SoundIconFolder line replaces the default; later ones add to it.
            if !hasOwnSoundIconFolders { soundIconFolders = [] }
            hasOwnSoundIconFolders = true
            soundIconFolders.append(value)
        case "capitalicon":
            guard let value = single(), !value.isEmpty else { return expected("one sound icon name or file path") }
            capitalIcon = value
        case "capitalpitchrise":
            let range = Self.capitalPitchRises
            guard let value = number(0...range.upperBound), value == 0 || range.contains(value) else {
                return expected("0 (off) or a rise in percent from \(range.lowerBound) to \(range.upperBound)")
            }
            capitalPitchRise = value
        case "keynamesfolder":
            guard let value = single(), !value.isEmpty else { return expected("one folder path") }
            keyNamesFolders.append(value)
        case "symbolsfolder":
            guard let value = single(), !value.isEmpty else { return expected("one folder path") }
            symbolsFolder = value
        case "voicefolder":
            guard let value = single(), !value.isEmpty else { return expected("one folder path") }
            voiceFolders.append(value)
        case "loglevel":
            guard let value = number(0...5) else { return expected("a level from 0 to 5") }
            logLevel = value
        case "debug":
            // speech-dispatcher's conventional switch: Debug 1 means the most detailed log.
            guard let value = number(0...1) else { return expected("0 or 1") }
            logLevel = value == 1 ? 5 : logLevel
        default:
            return "unknown setting \(entry.key.debugDescription), skipped"
        }
        return nil
    }
}

/// How Utter plays its audio.
public enum AudioBackend: String, CaseIterable, Sendable {
    /// What the session runs: ALSA when an ALSA device is configured here or named by
    /// speech-dispatcher's ALSA output, else PipeWire when its socket is there, else a
    /// PulseAudio server when one answers, else ALSA's `default`.
    case auto
    /// libpipewire's native API: a stream pulled by PipeWire's own real-time thread, asleep in
    /// silence, a STOP faded in the next quantum.
    case pipewire
    /// libpulse's native API: a corked stream in silence, flushed with a fade on STOP.
    case pulse
    /// An ALSA device (`AudioDevice`, else the one speech-dispatcher names, else `default`).
    case alsa
}

/// BCP 47 tags as configuration takes them: letters, then subtags of letters and digits.
enum LanguageCode {
    static func isTag(_ text: String) -> Bool {
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return subtags.dropFirst().allSatisfy {
            (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
