/// A writing system, as far as choosing a voice goes: the letters of one script are read by the
/// voices of the languages written in it.
public enum Script: String, CaseIterable, Hashable, Sendable {
    case latin, greek, cyrillic, armenian, hebrew, arabic, devanagari, bengali, gurmukhi, gujarati, oriya
    case tamil, telugu, kannada, malayalam, sinhala, thai, lao, tibetan, myanmar, georgian, ethiopic, khmer
    case hangul
    /// Chinese characters: Japanese kanji and Chinese hanzi alike.
    case han
    /// Japanese hiragana and katakana (with the long-vowel mark).
    case kana

    /// The script of a letter; nil for what belongs to no script (digits, punctuation, spaces,
    /// symbols, emoji) or inherits its neighbour's (combining marks).
    public static func of(_ scalar: Unicode.Scalar) -> Script? {
        let value = scalar.value
        if value < 0x80 {
            return (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) ? .latin : nil
        }
        switch value {
        case 0xC0...0x24F where value != 0xD7 && value != 0xF7: return .latin
        case 0x1E00...0x1EFF, 0xFF21...0xFF3A, 0xFF41...0xFF5A: return .latin
        case 0x370...0x3FF, 0x1F00...0x1FFF: return value == 0x37E || value == 0x387 ? nil : .greek
        case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: return .cyrillic
        case 0x531...0x58F: return .armenian
        case 0x5D0...0x5F2: return .hebrew
        case 0x620...0x64A, 0x66E...0x6D3, 0x6FA...0x6FF, 0x750...0x77F, 0x8A0...0x8FF, 0xFB50...0xFDFF,
            0xFE70...0xFEFF:
            return .arabic
        case 0x904...0x939, 0x93D, 0x950, 0x958...0x961, 0x972...0x97F: return .devanagari
        case 0x980...0x9FF: return .bengali
        case 0xA00...0xA7F: return .gurmukhi
        case 0xA80...0xAFF: return .gujarati
        case 0xB00...0xB7F: return .oriya
        case 0xB80...0xBFF: return .tamil
        case 0xC00...0xC7F: return .telugu
        case 0xC80...0xCFF: return .kannada
        case 0xD00...0xD7F: return .malayalam
        case 0xD80...0xDFF: return .sinhala
        case 0xE01...0xE30, 0xE32, 0xE33, 0xE40...0xE46: return .thai
        case 0xE80...0xEFF: return .lao
        case 0xF00...0xFFF: return .tibetan
        case 0x1000...0x109F: return .myanmar
        case 0x10A0...0x10FF, 0x1C90...0x1CBF: return .georgian
        case 0x1100...0x11FF, 0x3131...0x318E, 0xAC00...0xD7A3: return .hangul
        case 0x1200...0x137F: return .ethiopic
        case 0x1780...0x17DD: return .khmer
        case 0x3005...0x3007, 0x3021...0x3029, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F:
            return .han
        case 0x3041...0x3096, 0x309D...0x309F, 0x30A1...0x30FA, 0x30FC...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9D:
            return .kana
        default: return nil
        }
    }

    /// The scripts a language is written in, from its BCP 47 tag (`sr-Latn` and `sr`, `ja`, `zh`).
    /// Languages not listed are written in Latin letters.
    public static func scripts(ofLanguage tag: String) -> Set<Script> {
        let subtags = tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard let primary = subtags.first.map(String.init) else { return [.latin] }
        if subtags.contains("latn") { return [.latin] }
        if subtags.contains("cyrl") { return [.cyrillic] }
        if primary == "ja" || primary == "jpn" { return [.kana, .han] }
        if primary == "ko" { return [.hangul, .han] }
        if chinese.contains(primary) { return [.han] }
        if let script = byLanguage[primary] { return [script] }
        return [.latin]
    }

    /// Primary subtags of the Chinese languages espeak-ng and BCP 47 use.
    static let chinese: Set<String> = ["zh", "cmn", "yue", "hak", "nan", "wuu", "hsn", "gan", "cjy", "cdo", "cpx"]

    static let byLanguage: [String: Script] = {
        var table: [String: Script] = [:]
        let lists: [(Script, [String])] = [
            (.greek, ["el", "grc"]),
            (.cyrillic, ["ru", "uk", "be", "bg", "mk", "sr", "kk", "ky", "mn", "tt", "ba", "cv", "tg", "ce", "os", "sah"]),
            (.armenian, ["hy"]), (.hebrew, ["he", "iw", "yi"]),
            (.arabic, ["ar", "fa", "ur", "ps", "sd", "ug", "ckb"]),
            (.devanagari, ["hi", "mr", "ne", "sa", "kok", "mai", "bh", "new"]),
            (.bengali, ["bn", "as", "bpy"]), (.gurmukhi, ["pa"]), (.gujarati, ["gu"]), (.oriya, ["or"]),
            (.tamil, ["ta"]), (.telugu, ["te"]), (.kannada, ["kn"]), (.malayalam, ["ml"]), (.sinhala, ["si"]),
            (.thai, ["th"]), (.lao, ["lo"]), (.tibetan, ["bo", "dz"]), (.myanmar, ["my"]), (.georgian, ["ka"]),
            (.ethiopic, ["am", "ti", "gez"]), (.khmer, ["km"]),
        ]
        for (script, languages) in lists {
            for language in languages { table[language] = script }
        }
        return table
    }()

    /// The language a text in this script is given to when the voice cannot read it; nil for
    /// Latin and Han, which depend on the message (``LanguageSwitching``).
    var language: String? {
        switch self {
        case .latin, .han: nil
        case .kana: "ja"
        case .hangul: "ko"
        case .greek: "el"
        case .cyrillic: "ru"
        case .armenian: "hy"
        case .hebrew: "he"
        case .arabic: "ar"
        case .devanagari: "hi"
        case .bengali: "bn"
        case .gurmukhi: "pa"
        case .gujarati: "gu"
        case .oriya: "or"
        case .tamil: "ta"
        case .telugu: "te"
        case .kannada: "kn"
        case .malayalam: "ml"
        case .sinhala: "si"
        case .thai: "th"
        case .lao: "lo"
        case .tibetan: "bo"
        case .myanmar: "my"
        case .georgian: "ka"
        case .ethiopic: "am"
        case .khmer: "km"
        }
    }
}
