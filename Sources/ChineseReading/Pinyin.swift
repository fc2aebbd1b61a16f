/// One Mandarin syllable in the form espeak-ng's pinyin voice reads: letters, then the tone's digit.
struct Syllable: Equatable, Hashable {
    /// Lower-case ASCII letters, ü written `v` (`lv`, `nve`).
    var letters: String
    /// 1 to 4, and 5 for the neutral tone.
    var tone: Int

    /// `nv3`: the voice reads syllables run together as one word, the digits marking their ends.
    var numbered: String { "\(letters)\(tone)" }

    init(letters: String, tone: Int) {
        self.letters = letters
        self.tone = tone
    }

    /// A syllable written with tone numbers (`yin2`, `de5`); nil when it is not one.
    init?(numbered text: Substring) {
        guard let last = text.last, let tone = last.wholeNumberValue, (1...5).contains(tone) else { return nil }
        let letters = text.dropLast()
        guard !letters.isEmpty, letters.allSatisfy({ $0.isASCII && $0.isLowercase }) else { return nil }
        self.init(letters: String(letters), tone: tone)
    }

    /// A syllable as ICU's Han-Latin writes it, tone marks on a vowel (`nǐ`, `lǜ`, `de` for the
    /// neutral tone); nil when it is no pinyin syllable (what ICU leaves untransliterated).
    init?(marked text: String) {
        var letters = ""
        var tone = 5
        for scalar in text.unicodeScalars {
            if let (base, mark) = Self.markedVowels[scalar] {
                letters.unicodeScalars.append(contentsOf: base.unicodeScalars)
                if mark != 5 { tone = mark }
            } else if let mark = Self.combiningMarks[scalar] {
                if mark == 0 {
                    // A combining diaeresis: the u before it is ü.
                    guard letters.last == "u" else { return nil }
                    letters.removeLast()
                    letters.append("v")
                } else {
                    tone = mark
                }
            } else if scalar.isASCII, scalar.properties.isAlphabetic {
                letters.unicodeScalars.append(contentsOf: String(scalar).lowercased().unicodeScalars)
            } else {
                return nil
            }
        }
        guard !letters.isEmpty else { return nil }
        self.init(letters: letters, tone: tone)
    }

    /// Precomposed vowels with a tone mark (or ü's diaeresis, tone 5: no mark).
    private static let markedVowels: [Unicode.Scalar: (String, Int)] = {
        var table: [Unicode.Scalar: (String, Int)] = [:]
        let rows: [(String, String)] = [
            ("a", "āáǎà"), ("e", "ēéěè"), ("i", "īíǐì"), ("o", "ōóǒò"), ("u", "ūúǔù"), ("v", "ǖǘǚǜ"),
            ("n", "\u{0144}\u{0148}\u{01F9}"), ("m", "\u{1E3F}"),
        ]
        for (base, marked) in rows {
            let tones: [Int] = base == "n" ? [2, 3, 4] : base == "m" ? [2] : [1, 2, 3, 4]
            for (scalar, tone) in zip(marked.unicodeScalars, tones) { table[scalar] = (base, tone) }
        }
        table["ü"] = ("v", 5)
        table["ê"] = ("e", 5)
        return table
    }()

    /// Combining tone marks (0 for the diaeresis of ü).
    private static let combiningMarks: [Unicode.Scalar: Int] = [
        "\u{0304}": 1, "\u{0301}": 2, "\u{030C}": 3, "\u{0300}": 4, "\u{0308}": 0,
    ]
}

/// Whether a scalar is a Han character (CJK ideographs and their extensions, compatibility
/// ideographs, 〇).
func isHan(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x3007, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x323AF: true
    default: false
    }
}
