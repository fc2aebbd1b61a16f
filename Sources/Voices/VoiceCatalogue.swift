/// The voices on offer, how they are listed and how a message's settings choose one.
public struct VoiceCatalogue: Sendable {
    /// One line of the voice list: a voice under one of its languages.
    public struct Listing: Equatable, Sendable {
        public var name: String
        public var language: LanguageTag
        public var voiceIndex: Int
    }

    public let voices: [Voice]
    /// Every voice under its primary languages and again under each supported one (Orca filters
    /// voices by that single language field); names are unique. Listings whose tag names a
    /// region by its letters come first, then those of a language alone, then those of a region
    /// by number (`en-029`), each with neural voices first, then recorded ones, then espeak-ng's,
    /// in voice order: Qt and Chromium read `en` and `en-029` as `en-US` and take the first voice
    /// listed for a locale, which is so the one a message of that language gets.
    public let listings: [Listing]
    private let voiceIndexByName: [String: Int]
    /// Every (voice, language) pair, flattened once: selection runs for every message.
    private let languageEntries: [LanguageEntry]

    /// Language (lower-case tag) → the voice `LanguageVoice` names for it, where that voice exists.
    private let chosenForLanguage: [String: Int]

    private struct LanguageEntry {
        var voiceIndex: Int
        var tag: LanguageTag
        /// The voice's own language before one it merely supports, then neural before recorded
        /// before espeak-ng, then espeak-ng's priority, then voice order.
        var rank: (Int, Int, Int, Int)
    }

    /// The voices; `languageVoices` (language tag → voice name, `LanguageVoice` in utter.conf)
    /// names the voice a language gets where a message names none, instead of its best one.
    public init(voices: [Voice], languageVoices: [String: String] = [:]) {
        self.voices = voices
        var listings: [Listing] = []
        var taken: Set<String> = []
        var byName: [String: Int] = [:]
        let listedNames = voices.map(Self.listedName(of:))
        // The plain names go first so that no suffixed name can take one of them.
        for (voice, listed) in zip(voices, listedNames) {
            taken.insert(voice.name.lowercased())
            taken.insert(listed.lowercased())
        }
        for (index, voice) in voices.enumerated() {
            let listed = listedNames[index]
            for known in [voice.name, listed, voice.identifier] {
                let key = known.lowercased()
                if byName[key] == nil { byName[key] = index }
            }
            for (position, language) in voice.languages.enumerated() {
                var name = listed
                if position > 0 {
                    name = "\(listed) [\(language.tag)]"
                    var counter = 2
                    while taken.contains(name.lowercased()) {
                        name = "\(listed) [\(language.tag)] \(counter)"
                        counter += 1
                    }
                    taken.insert(name.lowercased())
                    byName[name.lowercased()] = index
                }
                listings.append(Listing(name: name, language: language.tag, voiceIndex: index))
            }
            if voice.languages.isEmpty, let none = LanguageTag("und") {
                listings.append(Listing(name: listed, language: none, voiceIndex: index))
            }
        }
        // Each listing's place, worked out once (INIT lists every voice: the sort runs at start-up).
        let kinds = voices.map(Self.kindRank)
        let places = listings.enumerated().map { index, listing in
            (Self.listingOrder(listing.language), kinds[listing.voiceIndex], index)
        }
        self.listings = places.sorted { $0 < $1 }.map { listings[$0.2] }
        self.voiceIndexByName = byName
        self.languageEntries = voices.enumerated().flatMap { index, voice in
            voice.languages.enumerated().map { position, language in
                LanguageEntry(
                    voiceIndex: index, tag: language.tag,
                    rank: (position < voice.primaryLanguages.count ? 0 : 1, kinds[index], language.priority, index))
            }
        }
        self.chosenForLanguage = languageVoices.reduce(into: [:]) { chosen, pair in
            guard let tag = LanguageTag(pair.key), let index = byName[pair.value.lowercased()] else { return }
            chosen[tag.key] = index
        }
    }

    /// Neural voices speak best, then recorded ones (their clips, the rest by their fallback).
    private static func kindRank(_ voice: Voice) -> Int {
        switch voice.kind {
        case .neural: 0
        case .clips: 1
        case .espeak: espeakKindRank
        }
    }

    private static let espeakKindRank = 2

    /// The voice `LanguageVoice` names for `language`, if it names one that exists.
    public func chosenVoice(forLanguage language: LanguageTag) -> Voice? {
        chosenForLanguage[language.key].map { voices[$0] }
    }

    /// A voice's name in the voice list, which clients show as it is (Chromium adds the module's
    /// name, Qt and Orca list it under its language): espeak-ng's names say language and region,
    /// and a recorded or neural voice says what it is.
    public static func listedName(of voice: Voice) -> String {
        let kind =
            switch voice.kind {
            case .espeak: ""
            case .clips: "recorded"
            case .neural: "neural"
            }
        guard !kind.isEmpty, !voice.name.lowercased().hasSuffix("(\(kind))") else { return voice.name }
        return "\(voice.name) (\(kind))"
    }

    private static func listingOrder(_ tag: LanguageTag) -> Int {
        guard let region = tag.region else { return 1 }
        return region.allSatisfy(\.isLetter) ? 0 : 2
    }

    /// The listings for a LIST VOICES request. With a language (the 0.12 form) only those listed
    /// under exactly that tag, or under a tag of that language when only a language is asked for
    /// (`en` gives `en-US` too; `en-US` gives neither `en-GB` nor `en`), as speech-dispatcher's own
    /// modules filter.
    public func listings(language: String?) -> [Listing] {
        guard let language else { return listings }
        guard let tag = LanguageTag(language) else { return [] }
        return listings.filter { $0.language == tag || $0.language.primaryLanguage == tag.key }
    }

    /// Every name a client may give a voice (listing name, voice name, identifier; lowercased),
    /// with the engine's name for that voice, for `<voice name>` in SSML.
    /// A clip voice stands for its fallback voice there: SSML cannot switch clips on mid-text.
    public var engineVoiceNames: [String: String] {
        voiceIndexByName.compactMapValues { index in
            switch voices[index].kind {
            case .espeak(let engineName): engineName
            case .clips(let clips): clips.fallbackEngineName
            case .neural(let neural): neural.fallbackEngineName
            }
        }
    }

    /// The voice a listing name, voice name or identifier names (case-insensitive).
    public func voice(named name: String) -> Voice? {
        voiceIndexByName[name.lowercased()].map { voices[$0] }
    }

    /// How a voice was chosen, for the log.
    public enum Reason: Equatable, Sendable {
        case synthesisVoice
        case language
        case primaryLanguage
        case defaultVoice
        case defaultLanguage
        case firstVoice
    }

    /// Chooses the voice for a message: `synthesisVoice` if it names one, else the best voice for
    /// `language` (full tag, then primary subtag; primary languages and espeak-ng's priority first),
    /// else `defaultVoice`, else `defaultLanguage`, else the first voice. Nil only when there are no voices.
    public func select(
        synthesisVoice: String?, language: String?, defaultVoice: String?, defaultLanguage: String
    ) -> (voice: Voice, reason: Reason)? {
        if let synthesisVoice, let voice = voice(named: synthesisVoice) {
            return (voice, .synthesisVoice)
        }
        if let language, let tag = LanguageTag(language) {
            if let voice = best(for: tag) { return (voice, .language) }
            if let tag = LanguageTag(tag.primaryLanguage), let voice = best(forPrimary: tag) {
                return (voice, .primaryLanguage)
            }
        }
        if let defaultVoice, let voice = voice(named: defaultVoice) {
            return (voice, .defaultVoice)
        }
        if let tag = LanguageTag(defaultLanguage) {
            if let voice = best(for: tag) ?? LanguageTag(tag.primaryLanguage).flatMap(best(forPrimary:)) {
                return (voice, .defaultLanguage)
            }
        }
        return voices.first.map { ($0, .firstVoice) }
    }

    /// The voice that speaks `language` best (a BCP 47 tag: the whole tag, else its language).
    public func voice(forLanguage language: String) -> Voice? {
        guard let tag = LanguageTag(language) else { return nil }
        return best(for: tag) ?? LanguageTag(tag.primaryLanguage).flatMap(best(forPrimary:))
    }

    /// The voice that speaks exactly `tag` best, or the one `LanguageVoice` names for it. For a
    /// language alone (`en`), a neural or recorded voice of any of its regions counts too: it is
    /// the language's best voice, where espeak-ng's are chosen by the tag they list.
    private func best(for tag: LanguageTag) -> Voice? {
        if let chosen = chosenVoice(forLanguage: tag) { return chosen }
        let isLanguageAlone = tag.key == tag.primaryLanguage
        return best { entry in
            entry.tag == tag
                || (isLanguageAlone && entry.rank.1 < Self.espeakKindRank && entry.tag.primaryLanguage == tag.key)
        }
    }

    /// The voice for a bare language subtag: one listing that language itself, else any dialect.
    private func best(forPrimary tag: LanguageTag) -> Voice? {
        best(for: tag) ?? best { $0.tag.primaryLanguage == tag.primaryLanguage }
    }

    private func best(where matches: (LanguageEntry) -> Bool) -> Voice? {
        var best: LanguageEntry?
        for entry in languageEntries where matches(entry) {
            if best == nil || entry.rank < best!.rank { best = entry }
        }
        return best.map { voices[$0.voiceIndex] }
    }
}
