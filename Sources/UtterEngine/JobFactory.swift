package import Configuration
package import ModuleProtocol
package import SSML
package import Speech
package import Voices

/// Turns a message and the settings sent before it into a synthesis job.
package struct JobFactory: Sendable {
    package var configuration: UtterConfiguration
    package var catalogue: VoiceCatalogue
    /// Key, symbol and emoji names per language; without it, key names are spoken as SSIP writes them.
    package var words: WordBook?
    private let engineVoiceNames: [String: String]
    /// The engine voice for every language a voice is listed for (lower-case tags and primary
    /// subtags), where text of that language goes when the message's voice cannot read it.
    private let languageVoices: [String: String]

    package init(configuration: UtterConfiguration, catalogue: VoiceCatalogue, words: WordBook? = nil) {
        self.configuration = configuration
        self.catalogue = catalogue
        self.words = words
        self.engineVoiceNames = catalogue.engineVoiceNames
        var languageVoices: [String: String] = [:]
        for voice in catalogue.voices {
            for language in voice.languages {
                for key in [language.tag.description.lowercased(), language.tag.primaryLanguage.lowercased()]
                where languageVoices[key] == nil {
                    guard let chosen = catalogue.voice(forLanguage: key) else { continue }
                    switch chosen.kind {
                    case .espeak(let engineName): languageVoices[key] = engineName
                    case .clips(let clips): languageVoices[key] = clips.fallbackEngineName
                    case .neural(let neural): languageVoices[key] = neural.fallbackEngineName
                    }
                }
            }
        }
        self.languageVoices = languageVoices
    }

    /// The voice `settings` choose, and why; nil when there is no voice at all.
    package func voice(for settings: SpeechSettings) -> (voice: Voice, reason: VoiceCatalogue.Reason)? {
        catalogue.select(
            synthesisVoice: settings.synthesisVoice, language: settings.language,
            defaultVoice: configuration.defaultVoice, defaultLanguage: configuration.defaultLanguage)
    }

    /// The job for `kind` with `text`, or nil when there is no voice at all.
    package func job(
        id: UInt64, kind: MessageKind, text: String, settings: SpeechSettings
    ) -> (job: SynthesisJob, voice: Voice, reason: VoiceCatalogue.Reason)? {
        guard let (voice, reason) = voice(for: settings) else { return nil }
        let engineVoice: String
        let clips: ClipVoice?
        var neural: NeuralVoice?
        switch voice.kind {
        case .espeak(let engineName):
            engineVoice = engineName
            clips = nil
        case .neural(let neuralVoice):
            // The espeak-ng voice speaks when the model cannot (and reads CHAR and KEY names' markup).
            engineVoice = neuralVoice.fallbackEngineName
            clips = nil
            neural = neuralVoice
        case .clips(let clipVoice):
            clips = clipVoice
            // Without a fallback the engine gets no text at all; it still needs a voice set.
            engineVoice = clipVoice.fallbackEngineName ?? fallbackEngineVoice(for: voice)
        }
        let variant = settings.voiceType.flatMap { configuration.voiceTypeVariants[$0.rawValue] }
        var parameters = parameters(for: settings)
        if kind == .character {
            // A lone character read with every punctuation name gives its name ("comma", "euros").
            parameters.punctuation = .all
            // A lone capital is raised in its markup, for every voice kind's engine text alike.
            if case .pitch = parameters.capitals { parameters.capitals = .none }
        }
        let capitals: Segmenter.Capitals =
            switch settings.capitalLetters {
            case .none: .none
            case .spell: .spell
            case .icon: .icon(configuration.capitalIcon)
            }
        let language = messageLanguage(voice: voice, settings: settings)
        let capitalPitchSteps = EngineParameters.pitchSteps(risingBy: configuration.capitalPitchRise)
        let markup = ssml(
            for: kind, text: text, language: language, capitals: capitals, capitalPitchSteps: capitalPitchSteps)
        let spells = settings.spelling && kind == .speak
        var job = SynthesisJob(
            id: id, ssml: markup,
            engineVoice: engineVoice, variant: variant, parameters: parameters,
            gain: Float(settings.volume + 100) / 200,
            segmenter: Segmenter(
                spellsText: spells, capitals: capitals, engineVoiceNames: engineVoiceNames,
                languageSwitching: languageSwitching(voice: voice, language: language)),
            soundFiles: kind == .soundIcon ? soundIconFiles(named: text) : [],
            soundFolders: configuration.soundIconFolders)
        job.segmenter.capitalPitchSteps = capitalPitchSteps
        // CHAR and KEY too: a clip may say a letter or a key's name, and without a fallback
        // nothing else may be heard. Spelled text is read letter by letter, never as phrases.
        // The phrases are found as the segments are made, a run of text at a time.
        if let clips, kind != .soundIcon, !spells {
            let book = clips.phrases
            job.segmenter.clips = ClipPhrases(keepsOtherText: clips.fallbackEngineName != nil) { text in
                book.matches(in: text).map { ($0.range, $0.clip) }
            }
        }
        job.languageVoices = languageVoices
        job.neural = neural
        if neural != nil, kind == .character || kind == .key, configuration.neuralEchoFallsBack {
            job.neuralEchoBudget = configuration.neuralEchoMilliseconds
        }
        job.segmenter.breaksEndSegments = neural != nil
        job.segmenter.prosodyRatesEndSegments = neural != nil
        // espeak-ng takes the words a minute itself; clips and neural voices are paced by the same scale.
        if clips != nil || neural != nil {
            let normal = Double(max(1, configuration.normalRate))
            job.speed = Double(parameters.wordsPerMinute) / normal
            job.maximumSpeed = Double(configuration.maximumRate) / normal
        }
        job.segmenter.readLanguages = readLanguages(engineVoice: engineVoice, language: language)
        return (job, voice, reason)
    }

    /// The languages whose readers' words the voices speaking them read: Japanese kana always,
    /// Mandarin's pinyin only where espeak-ng's pinyin voice speaks it (its other voice reads
    /// pinyin as English).
    package func readLanguages(engineVoice: String, language: LanguageTag) -> Set<String> {
        let chinese: Set<String> = ["zh", "cmn"]
        let mandarinVoice =
            chinese.contains(language.primaryLanguage.lowercased()) ? engineVoice : languageVoices["zh"]
        return mandarinVoice == EspeakVoiceQuirks.mandarinPinyinVoice ? chinese.union(["ja"]) : ["ja"]
    }

    /// How the message's text in other scripts goes to other voices.
    package func languageSwitching(voice: Voice, language: LanguageTag) -> LanguageSwitching {
        var scripts = Set(voice.languages.flatMap { Script.scripts(ofLanguage: $0.tag.description) })
        scripts.formUnion(Script.scripts(ofLanguage: language.description))
        return LanguageSwitching(
            messageLanguage: language.description, voiceScripts: scripts,
            isAutomatic: configuration.languageSwitching, hanLanguage: configuration.hanLanguage,
            latinLanguage: configuration.latinLanguage, availableLanguages: Set(languageVoices.keys))
    }

    /// An espeak-ng voice for a clip voice's language, for the rare text it cannot leave out.
    private func fallbackEngineVoice(for voice: Voice) -> String {
        let language = voice.primaryLanguages.first?.tag
        for candidate in catalogue.voices where candidate.languages.contains(where: { $0.tag == language }) {
            if case .espeak(let engineName) = candidate.kind { return engineName }
        }
        for candidate in catalogue.voices {
            if case .espeak(let engineName) = candidate.kind { return engineName }
        }
        return "en"
    }

    /// The language words are spoken in: the message's language where the chosen voice speaks it
    /// (`en-GB` from a voice listed for `en`), else the voice's own.
    package func messageLanguage(voice: Voice, settings: SpeechSettings) -> LanguageTag {
        let own = voice.primaryLanguages.first?.tag ?? LanguageTag("en")!
        guard let asked = settings.language.flatMap(LanguageTag.init) else { return own }
        let speaksIt = voice.languages.contains {
            $0.tag == asked || $0.tag.primaryLanguage == asked.primaryLanguage
        }
        return speaksIt ? asked : own
    }

    /// The files a SOUND_ICON name may stand for, in the configured folders: the name as it is,
    /// then with `.wav`. A name that is not a plain file name (`/`, `..`) stands for none.
    package func soundIconFiles(named name: String) -> [String] {
        guard !name.contains("/"), name != "." else { return [] }
        return SoundLocator.candidates(for: name, folders: configuration.soundIconFolders)
    }

    /// espeak-ng parameters for the server's −100…100 settings.
    package func parameters(for settings: SpeechSettings) -> EngineParameters {
        var parameters = EngineParameters()
        let normal = configuration.normalRate
        parameters.wordsPerMinute =
            settings.rate < 0
            ? normal + (normal - configuration.minimumRate) * settings.rate / 100
            : normal + (configuration.maximumRate - normal) * settings.rate / 100
        parameters.pitch = 50 + settings.pitch / 2
        parameters.pitchRange = 50 + settings.pitchRange / 2
        switch settings.punctuation {
        case .none: parameters.punctuation = .none
        case .some: parameters.punctuation = .some(configuration.somePunctuation)
        case .most: parameters.punctuation = .some(configuration.somePunctuation + "()[]{}<>\"'/\\|;:-")
        case .all: parameters.punctuation = .all
        }
        // Words starting with a capital are raised by the engine, unless it announces them ("capital").
        let steps = EngineParameters.pitchSteps(risingBy: configuration.capitalPitchRise)
        switch settings.capitalLetters {
        case .none: parameters.capitals = steps > 0 ? .pitch(steps: steps) : .none
        case .spell: parameters.capitals = .spell
        // Utter plays the icon itself: libespeak-ng's own (option 1) is a silent gap without its data.
        case .icon: parameters.capitals = steps > 0 ? .pitch(steps: steps) : .none
        }
        return parameters
    }

    /// SSML for a message: SPEAK data is SSML already; CHAR and KEY data are raw strings, named
    /// in `language`. A capital letter sent alone is raised by `capitalPitchSteps` (engine steps).
    package func ssml(
        for kind: MessageKind, text: String, language: LanguageTag, capitals: Segmenter.Capitals,
        capitalPitchSteps: Int = 0
    ) -> String {
        switch kind {
        case .speak:
            return text
        case .character:
            // The server sends `space` as a CHAR for languages without symbol tables.
            let character = text == "space" ? " " : text
            if !character.isEmpty && character.allSatisfy(\.isWhitespace) {
                // Named by the key tables; without them, as SSIP names it.
                return "<speak>\(keyPartMarkup("space", language))</speak>"
            }
            if let name = symbolName(character, language) { return "<speak>\(SSMLText.escape(name))</speak>" }
            let isCapital = character.count == 1 && character.first!.isUppercase && character.first!.isLetter
            let letter =
                isCapital && capitalPitchSteps > 0
                ? "<prosody pitch=\"+\(capitalPitchSteps)\">\(SSMLText.escape(character))</prosody>"
                : SSMLText.escape(character)
            if case .icon(let source) = capitals, isCapital {
                return "<speak><audio src=\"\(SSMLText.escape(source, quotes: true))\"/>\(letter)</speak>"
            }
            // espeak-ng names a lone letter, digit or symbol in the voice's language by itself;
            // its say-as "characters" says symbols and emoji twice ("euros euros") in 1.51.
            return "<speak>\(letter)</speak>"
        case .key:
            return "<speak>\(keyMarkup(text, language: language))</speak>"
        case .soundIcon:
            return ""
        }
    }

    /// An SSIP key name as words in `language`: `shift_a` → "shift a", `kp-enter` → "keypad
    /// enter", `control_alt_delete`, `f1`; single characters by their names.
    package func keyMarkup(_ key: String, language: LanguageTag) -> String {
        key.split(separator: "_", omittingEmptySubsequences: true).map { keyPartMarkup(String($0), language) }
            .joined(separator: " ")
    }

    private func keyPartMarkup(_ part: String, _ language: LanguageTag) -> String {
        if part.count == 1 {
            if let name = symbolName(part, language) { return SSMLText.escape(name) }
            return "<say-as interpret-as=\"tts:char\">\(SSMLText.escape(part))</say-as>"
        }
        if let (words, wordsLanguage) = keyName(part, language) {
            return inLanguage(words, wordsLanguage, of: language)
        }
        if part.lowercased().hasPrefix("kp-") && part.count > 3 {
            let keypad = keyName("kp", language).map { inLanguage($0.words, $0.language, of: language) } ?? "keypad"
            return keypad + " " + keyPartMarkup(String(part.dropFirst(3)), language)
        }
        if part.first == "f" || part.first == "F", part.count <= 3, part.dropFirst().allSatisfy(\.isNumber) {
            return "F" + part.dropFirst()  // espeak-ng reads "F12" in every language
        }
        return SSMLText.escape(String(part.map { $0 == "-" ? " " : $0 }))
    }

    private func keyName(_ key: String, _ language: LanguageTag) -> (words: String, language: String)? {
        words?.keyName(key, language: language)
    }

    /// A symbol's or emoji's name; letters and digits are left to the engine, which names them.
    private func symbolName(_ character: String, _ language: LanguageTag) -> String? {
        guard let first = character.first, character.count == 1, !first.isLetter, !first.isNumber,
            !first.isWhitespace
        else { return nil }
        return words?.symbolName(character, language: language)
    }

    /// `words` escaped, switched to their own language when a table fell back to another one.
    private func inLanguage(_ words: String, _ wordsLanguage: String, of language: LanguageTag) -> String {
        guard !WordBook.locales(of: language).contains(wordsLanguage) else { return SSMLText.escape(words) }
        return "<voice xml:lang=\"\(SSMLText.escape(wordsLanguage, quotes: true))\">\(SSMLText.escape(words))</voice>"
    }

}
