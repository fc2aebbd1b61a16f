/// How a message's text in scripts its voice cannot read goes to the voices of other languages:
/// a Japanese name in an English sentence to the Japanese voice, an English term in a Japanese one
/// to the English voice, Cyrillic in a list to the Russian voice.
public struct LanguageSwitching: Equatable, Sendable {
    /// The message's language (a BCP 47 tag): Han text goes to Japanese in a Japanese message.
    public var messageLanguage: String
    /// The scripts the message's voice reads; text in them is never switched.
    public var voiceScripts: Set<Script>
    /// Whether text in other scripts is switched; markup's `xml:lang` is obeyed either way.
    public var isAutomatic: Bool
    /// The language of Han text without kana; nil: Japanese in a Japanese message, else Chinese.
    public var hanLanguage: String?
    /// The language of Latin text inside a message in another script.
    public var latinLanguage: String
    /// The languages there is a voice for (lower-case BCP 47 primary subtags, or whole tags); text is
    /// only switched to these.
    public var availableLanguages: Set<String>

    /// Alphabetic runs shorter than this (a lone letter, an abbreviation's initial) stay with the
    /// voice around them. Han and kana switch at any length: each character is a word.
    public static let shortestSwitchedRun = 2

    public init(
        messageLanguage: String, voiceScripts: Set<Script>, isAutomatic: Bool = true, hanLanguage: String? = nil,
        latinLanguage: String = "en", availableLanguages: Set<String>
    ) {
        self.messageLanguage = messageLanguage
        self.voiceScripts = voiceScripts
        self.isAutomatic = isAutomatic
        self.hanLanguage = hanLanguage
        self.latinLanguage = latinLanguage
        self.availableLanguages = availableLanguages
    }

    /// A stretch of text and the language it is spoken in: nil for the message's own voice.
    public struct Run: Equatable, Sendable {
        public var language: String?
        /// Where it is in the text, in Unicode scalars.
        public var scalars: Range<Int>
        /// Whether it holds a letter (text of digits and punctuation alone keeps the voice it follows).
        public var hasLetters: Bool

        public init(language: String?, scalars: Range<Int>, hasLetters: Bool) {
            self.language = language
            self.scalars = scalars
            self.hasLetters = hasLetters
        }
    }

    /// The language text in `script` is switched to, or nil when the voice reads it (or no voice
    /// of that language is there). `hasKana`: the Han text is written with kana, so Japanese.
    public func language(for script: Script, hasKana: Bool, letters: Int) -> String? {
        guard !voiceScripts.contains(script) || (script == .han && hasKana && !voiceScripts.contains(.kana)) else {
            return nil
        }
        let language: String?
        switch script {
        case .han:
            language = hasKana ? "ja" : (hanLanguage ?? (primary(messageLanguage) == "ja" ? "ja" : "zh"))
        case .kana:
            language = "ja"
        case .latin:
            guard letters >= Self.shortestSwitchedRun else { return nil }
            language = latinLanguage
        default:
            guard letters >= Self.shortestSwitchedRun else { return nil }
            language = script.language
        }
        guard let language, isAvailable(language) else { return nil }
        return language
    }

    /// Whether a voice speaks `language` (its whole tag or its language).
    public func isAvailable(_ language: String) -> Bool {
        availableLanguages.contains(language.lowercased()) || availableLanguages.contains(primary(language))
    }

    /// `text` cut where its script changes to one the voice does not read, each run with the
    /// language it is spoken in. Digits and punctuation stay with the text before them, except
    /// digits written against the letters after them (`3人`, `2025年`), which go with those;
    /// text before the first letter is in `continuing`, the language the text before it is in.
    public func runs(of text: String, continuing: String?) -> [Run] {
        var groups: [Group] = []
        var index = 0
        for scalar in text.unicodeScalars {
            defer { index += 1 }
            guard let script = Self.grouped(Script.of(scalar)) else {
                if groups.isEmpty { groups.append(Group(script: nil, start: index)) }
                groups[groups.count - 1].end = index + 1
                // A sentence ends: the next one, Chinese or Japanese, is judged on its own.
                if Self.sentenceEnds.contains(scalar) { groups[groups.count - 1].isClosed = true }
                if scalar.properties.numericType == .decimal {
                    groups[groups.count - 1].trailingDigits += 1
                } else {
                    groups[groups.count - 1].trailingDigits = 0
                }
                continue
            }
            if let last = groups.indices.last, !groups[last].isClosed,
                groups[last].script == script || groups[last].script == nil
            {
                groups[last].script = script
                groups[last].add(scalar, script: Script.of(scalar)!, at: index)
                continue
            }
            // A new script: digits against it go with it, if letters stay before them.
            var start = index
            if let last = groups.indices.last, groups[last].trailingDigits > 0,
                groups[last].end - groups[last].trailingDigits > groups[last].lastLetter
            {
                start -= groups[last].trailingDigits
                groups[last].end = start
            }
            var group = Group(script: script, start: start)
            group.add(scalar, script: Script.of(scalar)!, at: index)
            groups.append(group)
        }
        var runs: [Run] = []
        for group in groups where group.end > group.start {
            let language: String? =
                group.script.map { script in
                    isAutomatic
                        ? self.language(
                            for: script == .kana ? (group.hasHan ? .han : .kana) : script, hasKana: group.hasKana,
                            letters: group.letters) : nil
                } ?? continuing
            let hasLetters = group.letters > 0
            if let last = runs.indices.last, runs[last].language == language || !hasLetters {
                runs[last].scalars = runs[last].scalars.lowerBound..<group.end
                runs[last].hasLetters = runs[last].hasLetters || hasLetters
            } else {
                runs.append(Run(language: language, scalars: group.start..<group.end, hasLetters: hasLetters))
            }
        }
        return runs
    }

    private static let sentenceEnds: Set<Unicode.Scalar> = [".", "!", "?", "。", "！", "？", "．"]

    /// Han and kana are one run: Japanese writes them together.
    private static func grouped(_ script: Script?) -> Script? {
        script == .han ? .kana : script
    }

    private func primary(_ tag: String) -> String {
        String(tag.lowercased().prefix { $0 != "-" && $0 != "_" })
    }

    /// Consecutive text of one script (Han and kana together) with the digits and punctuation after it.
    private struct Group {
        var script: Script?
        var start: Int
        var end: Int
        var letters = 0
        var hasKana = false
        var hasHan = false
        var lastLetter: Int
        var trailingDigits = 0
        /// Ended by a sentence's end: letters after it start a group of their own.
        var isClosed = false

        init(script: Script?, start: Int) {
            self.script = script
            self.start = start
            self.end = start
            self.lastLetter = start
        }

        mutating func add(_ scalar: Unicode.Scalar, script: Script, at index: Int) {
            letters += 1
            hasKana = hasKana || script == .kana
            hasHan = hasHan || script == .han
            lastLetter = index + 1
            end = index + 1
            trailingDigits = 0
        }
    }
}
