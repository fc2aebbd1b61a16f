/// What espeak-ng's Japanese voice reads correctly, and the scripts of the text it is given.
///
/// The voice reads hiragana and katakana alike, and a long-vowel mark ー after a kana as that
/// kana's vowel held (`トーキョー` is `t'o:k_jo:`), while vowel spellings are read as written
/// (`とうきょう` is `t,ouk_j'ou`, two vowels). So the dictionary's pronunciation, which writes long
/// vowels with ー, is given as it is; only a ー with no kana before it is spoken as a letter name
/// ("Japanese letter"), and is left out.
public enum Kana {
    /// The pronunciation as the voice should be given it: kana and ー after a kana, nothing else.
    public static func spoken(_ pronunciation: some StringProtocol) -> String {
        var result = String.UnicodeScalarView()
        var afterKana = false
        for scalar in pronunciation.unicodeScalars {
            if isLongVowelMark(scalar) {
                if afterKana { result.append("ー") }
            } else if isKana(scalar) {
                result.append(scalar)
                // ン and ッ carry no vowel to hold.
                afterKana = scalar != "ン" && scalar != "ん" && scalar != "ッ" && scalar != "っ"
            }
        }
        return String(result)
    }

    /// Whether the scalar is hiragana, katakana (full or half width) or an iteration mark, not ー.
    public static func isKana(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3041...0x3096, 0x309D...0x309F: true  // hiragana, ゝゞゟ
        case 0x30A1...0x30FA, 0x30FD...0x30FF: true  // katakana, ヽヾヿ
        case 0x31F0...0x31FF: true  // small katakana for Ainu
        case 0xFF66...0xFF6F, 0xFF71...0xFF9F: true  // half-width katakana and their voicing marks
        default: false
        }
    }

    /// The kana ending in o, which a following う lengthens.
    public static let oRow: Set<Unicode.Scalar> = Set("オコソトノホモヨロヲゴゾドボポョォおこそとのほもよろをごぞどぼぽょぉ".unicodeScalars)

    public static func isLongVowelMark(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "ー" || scalar == "ｰ"
    }

    /// Whether the text is all kana (and long-vowel marks), so it can be read as written.
    public static func isAllKana(_ text: some StringProtocol) -> Bool {
        var any = false
        for scalar in text.unicodeScalars {
            if isKana(scalar) {
                any = true
            } else if !isLongVowelMark(scalar) && scalar != "\u{3099}" && scalar != "\u{309A}" {
                return false
            }
        }
        return any
    }

    /// Whether the scalar is a Han character (kanji), which the voice cannot read.
    public static func isHan(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3005, 0x3007, 0x303B: true  // 々 〇 〻
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF: true
        default: false
        }
    }

    /// The Latin letter's name as Japanese readers say it in an acronym (`P` ピー), for ASCII and
    /// full-width letters.
    public static func letterName(_ scalar: Unicode.Scalar) -> String? {
        var value = scalar.value
        if (0xFF21...0xFF3A).contains(value) || (0xFF41...0xFF5A).contains(value) { value -= 0xFF21 - 0x41 }
        if (0x61...0x7A).contains(value) { value -= 0x20 }
        guard (0x41...0x5A).contains(value) else { return nil }
        return letterNames[Int(value - 0x41)]
    }

    private static let letterNames = [
        "エー", "ビー", "シー", "ディー", "イー", "エフ", "ジー", "エイチ", "アイ", "ジェー", "ケー", "エル", "エム",
        "エヌ", "オー", "ピー", "キュー", "アール", "エス", "ティー", "ユー", "ブイ", "ダブリュー", "エックス", "ワイ", "ゼット",
    ]

    /// The spoken letters of an acronym (`PC`, `ＰＣ`, `NHK`): up to six capitals, nil for anything else,
    /// which is left to the voice (or another voice) as written.
    public static func acronym(_ text: some StringProtocol) -> String? {
        let scalars = Array(text.unicodeScalars)
        guard (1...6).contains(scalars.count) else { return nil }
        var spoken = ""
        for scalar in scalars {
            let value = scalar.value
            guard (0x41...0x5A).contains(value) || (0xFF21...0xFF3A).contains(value),
                let name = letterName(scalar)
            else { return nil }
            spoken += name
        }
        return spoken
    }
}
