/// The language a text is most likely written in, for choosing a voice when none is given: by
/// its script, and for the Latin script by how often each language's commonest words occur.
public enum LanguageGuess {
    /// A BCP 47 primary language subtag (`de`, `ja`), or nil when the text gives too little to tell.
    public static func language(of text: String) -> String? {
        // The first part of a long text says enough, and keeps the guess quick.
        let sample = text.unicodeScalars.prefix(20_000)
        var scripts: [Script: Int] = [:]
        var hints: Set<Unicode.Scalar> = []
        for scalar in sample {
            guard let script = Script(scalar) else { continue }
            scripts[script, default: 0] += 1
            if script != .latin, script != .han { hints.insert(scalar) }
        }
        guard let (script, _) = scripts.max(by: { $0.value < $1.value }) else { return nil }
        switch script {
        case .latin: return latinLanguage(of: String(String.UnicodeScalarView(sample)))
        // Japanese is written in kanji too; its kana decide. Korean may mix in hanja.
        case .han, .kana:
            if scripts[.kana, default: 0] > 0 { return "ja" }
            return scripts[.hangul, default: 0] > 0 ? "ko" : "zh"
        case .hangul: return "ko"
        case .cyrillic:
            if hints.contains(where: { "іїєґІЇЄҐ".unicodeScalars.contains($0) }) { return "uk" }
            if hints.contains(where: { "ђћџјЂЋЏЈ".unicodeScalars.contains($0) }) { return "sr" }
            if hints.contains(where: { "ўЎ".unicodeScalars.contains($0) }) { return "be" }
            return hints.contains(where: { "ыэЫЭ".unicodeScalars.contains($0) }) ? "ru" : "bg"
        case .arabic: return hints.contains(where: { "پچژگ".unicodeScalars.contains($0) }) ? "fa" : "ar"
        case .greek: return "el"
        case .hebrew: return "he"
        case .devanagari: return "hi"
        case .bengali: return "bn"
        case .tamil: return "ta"
        case .thai: return "th"
        case .georgian: return "ka"
        case .armenian: return "hy"
        }
    }

    /// The Latin-script language whose common words make up most of `text`.
    private static func latinLanguage(of text: String) -> String? {
        var scores: [String: Int] = [:]
        var words = 0
        for word in text.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "'" }) {
            words += 1
            for (language, common) in commonWords where common.contains(String(word)) {
                scores[language, default: 0] += 1
            }
        }
        let ranked = scores.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        guard let best = ranked.first, best.value >= 2 || (words <= 3 && best.value >= 1) else { return nil }
        // A tie says nothing.
        if ranked.count > 1, ranked[1].value == best.value { return nil }
        return best.key
    }

    /// Each language's commonest short words, chosen so that few are shared.
    private static let commonWords: [String: Set<String>] = [
        "en": [
            "the", "and", "of", "to", "is", "that", "it", "was", "for", "with", "he", "she", "they", "this", "are",
            "have", "you", "not", "be", "at", "his", "her", "which", "from", "by", "we", "or", "an", "were", "been",
            "a", "but", "had", "has", "what", "there", "would", "their", "will", "my", "me", "i",
        ],
        "de": [
            "der", "die", "und", "das", "ist", "nicht", "ich", "sie", "es", "ein", "eine", "zu", "den", "mit", "sich",
            "auf", "dem", "auch", "wie", "wir", "war", "ihr", "aber", "nach", "bei", "noch", "oder", "wird", "sind",
            "er", "im", "dann", "dass", "einen", "zum", "zur", "hat", "haben", "wurde", "kann",
        ],
        "fr": [
            "le", "la", "les", "et", "est", "un", "une", "des", "du", "que", "qui", "il", "elle", "dans", "pour", "pas",
            "sur", "au", "avec", "ce", "se", "sont", "mais", "nous", "vous", "ont", "été", "aux", "ne", "je",
        ],
        "es": [
            "el", "los", "las", "y", "es", "que", "del", "un", "una", "por", "con", "para", "se", "su", "lo", "como",
            "pero", "más", "está", "son", "fue", "muy", "también", "sus", "al", "yo", "hay", "era", "ha", "ella",
        ],
        "it": [
            "il", "di", "che", "è", "la", "della", "un", "una", "per", "non", "sono", "del", "gli", "le", "con", "si",
            "da", "anche", "come", "ma", "nel", "alla", "questo", "ha", "io", "lei", "lui", "essere", "erano", "più",
        ],
        "nl": [
            "de", "het", "een", "en", "van", "is", "dat", "niet", "op", "te", "zijn", "met", "voor", "die", "ik",
            "ook", "maar", "hij", "zij", "wij", "naar", "er", "was", "heeft", "wordt", "nog", "aan", "bij", "dit",
        ],
        "pt": [
            "o", "os", "as", "e", "é", "de", "que", "do", "da", "um", "uma", "não", "para", "com", "por", "em", "se",
            "dos", "das", "mais", "como", "mas", "foi", "ele", "ela", "são", "está", "no", "na", "muito",
        ],
    ]
}

/// The scripts whose languages ``LanguageGuess`` tells apart.
private enum Script: Hashable {
    case latin, han, kana, hangul, cyrillic, arabic, greek, hebrew, devanagari, bengali, tamil, thai, georgian,
        armenian

    init?(_ scalar: Unicode.Scalar) {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F:
            guard scalar.properties.isAlphabetic else { return nil }
            self = .latin
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: self = .kana
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2FFFF: self = .han
        case 0xAC00...0xD7AF, 0x1100...0x11FF, 0x3130...0x318F: self = .hangul
        case 0x400...0x52F: self = .cyrillic
        case 0x600...0x6FF, 0x750...0x77F:
            guard scalar.properties.isAlphabetic else { return nil }
            self = .arabic
        case 0x370...0x3FF, 0x1F00...0x1FFF: self = .greek
        case 0x5D0...0x5EA: self = .hebrew
        case 0x900...0x97F: self = .devanagari
        case 0x980...0x9FF: self = .bengali
        case 0xB80...0xBFF: self = .tamil
        case 0xE00...0xE7F: self = .thai
        case 0x10A0...0x10FF: self = .georgian
        case 0x530...0x58F: self = .armenian
        default: return nil
        }
    }
}
