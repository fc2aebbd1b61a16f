/// Japanese kana as the phonemes Kokoro's Japanese voices were trained with (the Hepburn-like IPA
/// of misaki's Japanese romanizer): し ɕi, ち ʨi, つ ʦɨ, ふ ɸɯ, a small kana joined to the one
/// before it (きょ kʲo), ー as ː, っ as ʔ, and ん by the kana after it (m before m/p/b, ŋ before
/// k/ɡ, ɲ before ɲ/ʨ/ʥ, n before n/t/d/ɾ/z, ɴ otherwise).
///
/// Pure: the kana come from MeCab's pronunciations (katakana, は as ワ, long vowels as ー), one
/// word at a time, as the romanizer reads them.
public enum KanaPhonemes {
    /// The phonemes of one word written in kana (hiragana or katakana); anything else in it is skipped.
    public static func phonemes(of word: some StringProtocol) -> String {
        let kana = word.unicodeScalars.compactMap(hiragana)
        var result = ""
        for index in kana.indices {
            let previous = index > 0 ? kana[index - 1] : nil
            let next = index + 1 < kana.count ? kana[index + 1] : nil
            result += phonemes(of: kana[index], after: previous, before: next)
        }
        return result
    }

    /// The hiragana a kana stands for (katakana moved to hiragana; ー and the four katakana-only
    /// v-kana kept); nil for anything that is not kana.
    static func hiragana(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar.value {
        case 0x3041...0x3096, 0x309D, 0x309E, 0x30FC, 0x30F7...0x30FA: return scalar
        case 0x30A1...0x30F6: return Unicode.Scalar(scalar.value - 0x60)
        case 0x30FD, 0x30FE: return Unicode.Scalar(scalar.value - 0x60)
        default: return nil
        }
    }

    private static func phonemes(
        of kana: Unicode.Scalar, after previous: Unicode.Scalar?, before next: Unicode.Scalar?
    ) -> String {
        if kana == "ゝ" { return previous.flatMap { single[$0] } ?? "" }
        if kana == "ゞ" { return previous.flatMap { voiced[$0] }.flatMap { single[$0] } ?? "" }
        if let previous, let pair = pairs[pairKey(previous, kana)] { return pair }
        if let next, pairs[pairKey(kana, next)] != nil { return "" }
        if let next, small.contains(next) {
            guard kana != "っ", let own = single[kana], let joined = single[next] else { return "" }
            return String(own.unicodeScalars.dropLast()) + joined
        }
        if small.contains(kana) { return "" }
        switch kana {
        case "ー": return "ː"
        case "っ": return "ʔ"
        case "ん": return moraicNasal(before: next.flatMap { single[$0] })
        default: return single[kana] ?? ""
        }
    }

    /// ん's sound, made by what follows it.
    static func moraicNasal(before next: String?) -> String {
        guard let first = next?.unicodeScalars.first else { return "ɴ" }
        switch first {
        case "m", "p", "b": return "m"
        case "k", "ɡ": return "ŋ"
        case "ɲ", "ʨ", "ʥ": return "ɲ"
        case "n", "t", "d", "ɾ", "z": return "n"
        default: return "ɴ"
        }
    }

    private static func pairKey(_ first: Unicode.Scalar, _ second: Unicode.Scalar) -> UInt64 {
        UInt64(first.value) << 32 | UInt64(second.value)
    }

    /// The small kana that join the kana before them.
    static let small: Set<Unicode.Scalar> = ["ゃ", "ゅ", "ょ", "ぁ", "ぃ", "ぅ", "ぇ", "ぉ"]

    /// Each kana's phonemes; っ, ん and ー are read by ``phonemes(of:after:before:)``.
    static let single: [Unicode.Scalar: String] = {
        var table: [Unicode.Scalar: String] = [:]
        // Rows of the gojūon: the kana, then its phonemes, in order.
        let rows: [(String, [String])] = [
            ("ぁあぃいぅうぇえぉお", ["a", "a", "i", "i", "ɯ", "ɯ", "e", "e", "o", "o"]),
            ("かがきぎくぐけげこご", ["ka", "ɡa", "kʲi", "ɡʲi", "kɯ", "ɡɯ", "ke", "ɡe", "ko", "ɡo"]),
            ("さざしじすずせぜそぞ", ["sa", "ʣa", "ɕi", "ʥi", "sɨ", "zɨ", "se", "ʣe", "so", "ʣo"]),
            ("たちぢつづてでとど", ["ta", "ʨi", "ʥi", "ʦɨ", "zɨ", "te", "de", "to", "do"]),
            ("だ", ["da"]),
            ("なにぬねの", ["na", "ɲi", "nɯ", "ne", "no"]),
            ("はばぱひびぴふぶぷへべぺほぼぽ", ["ha", "ba", "pa", "çi", "bʲi", "pʲi", "ɸɯ", "bɯ", "pɯ", "he", "be", "pe", "ho", "bo", "po"]),
            ("まみむめも", ["ma", "mʲi", "mɯ", "me", "mo"]),
            ("ゃやゅゆょよ", ["ja", "ja", "jɯ", "jɯ", "jo", "jo"]),
            ("らりるれろ", ["ɾa", "ɾʲi", "ɾɯ", "ɾe", "ɾo"]),
            ("ゎわゐゑを", ["βa", "βa", "i", "e", "o"]),
            ("ゔゕゖ", ["vɯ", "ka", "ke"]),
            ("ヷヸヹヺ", ["va", "vʲi", "ve", "vo"]),
        ]
        for (kana, phonemes) in rows {
            for (scalar, sound) in zip(kana.unicodeScalars, phonemes) { table[scalar] = sound }
        }
        return table
    }()

    /// Kana read as one sound with the small kana after them.
    static let pairs: [UInt64: String] = {
        let written: [(String, String)] = [
            ("いぇ", "je"), ("うぃ", "βi"), ("うぇ", "βe"), ("うぉ", "βo"),
            ("きぇ", "kʲe"), ("きゃ", "kʲa"), ("きゅ", "kʲɨ"), ("きょ", "kʲo"),
            ("ぎゃ", "ɡʲa"), ("ぎゅ", "ɡʲɨ"), ("ぎょ", "ɡʲo"),
            ("くぁ", "kᵝa"), ("くぃ", "kᵝi"), ("くぇ", "kᵝe"), ("くぉ", "kᵝo"),
            ("ぐぁ", "ɡᵝa"), ("ぐぃ", "ɡᵝi"), ("ぐぇ", "ɡᵝe"), ("ぐぉ", "ɡᵝo"),
            ("しぇ", "ɕe"), ("しゃ", "ɕa"), ("しゅ", "ɕɨ"), ("しょ", "ɕo"),
            ("じぇ", "ʥe"), ("じゃ", "ʥa"), ("じゅ", "ʥɨ"), ("じょ", "ʥo"),
            ("ちぇ", "ʨe"), ("ちゃ", "ʨa"), ("ちゅ", "ʨɨ"), ("ちょ", "ʨo"),
            ("ぢゃ", "ʥa"), ("ぢゅ", "ʥɨ"), ("ぢょ", "ʥo"),
            ("つぁ", "ʦa"), ("つぃ", "ʦʲi"), ("つぇ", "ʦe"), ("つぉ", "ʦo"),
            ("てぃ", "tʲi"), ("てゅ", "tʲɨ"), ("でぃ", "dʲi"), ("でゅ", "dʲɨ"), ("とぅ", "tɯ"), ("どぅ", "dɯ"),
            ("にぇ", "ɲe"), ("にゃ", "ɲa"), ("にゅ", "ɲɨ"), ("にょ", "ɲo"),
            ("ひぇ", "çe"), ("ひゃ", "ça"), ("ひゅ", "çɨ"), ("ひょ", "ço"),
            ("びゃ", "bʲa"), ("びゅ", "bʲɨ"), ("びょ", "bʲo"), ("ぴゃ", "pʲa"), ("ぴゅ", "pʲɨ"), ("ぴょ", "pʲo"),
            ("ふぁ", "ɸa"), ("ふぃ", "ɸʲi"), ("ふぇ", "ɸe"), ("ふぉ", "ɸo"), ("ふゅ", "ɸʲɨ"), ("ふょ", "ɸʲo"),
            ("みゃ", "mʲa"), ("みゅ", "mʲɨ"), ("みょ", "mʲo"), ("りゃ", "ɾʲa"), ("りゅ", "ɾʲɨ"), ("りょ", "ɾʲo"),
            ("ゔぁ", "va"), ("ゔぃ", "vʲi"), ("ゔぇ", "ve"), ("ゔぉ", "vo"), ("ゔゅ", "bʲɨ"), ("ゔょ", "bʲo"),
        ]
        var table: [UInt64: String] = [:]
        for (kana, sound) in written {
            let scalars = Array(kana.unicodeScalars)
            table[pairKey(scalars[0], scalars[1])] = sound
        }
        return table
    }()

    /// The voiced kana of an unvoiced one, for ゞ.
    static let voiced: [Unicode.Scalar: Unicode.Scalar] = {
        let plain = Array("かきくけこさしすせそたちつてとはひふへほ".unicodeScalars)
        let voiced = Array("がぎぐげござじずぜぞだぢづでどばびぶべぼ".unicodeScalars)
        return Dictionary(uniqueKeysWithValues: zip(plain, voiced))
    }()

    /// Japanese and ASCII punctuation that ends a clause, as the symbol Kokoro reads for it.
    public static func clauseEnd(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar {
        case "。", "．", ".": "."
        case "、", "，", ",": ","
        case "！", "!": "!"
        case "？", "?": "?"
        case "；", ";": ";"
        case "：", ":": ":"
        case "…": "…"
        default: nil
        }
    }

    /// The clauses of Japanese text whose words are kana (as Utter's Japanese reader writes them:
    /// words apart, punctuation kept), each word's phonemes apart by a space, a clause ending at
    /// its punctuation. ASCII letters and digits in it are kept as they are (Kokoro reads Latin
    /// letters); other characters are skipped.
    public static func clauses(of scalars: [Unicode.Scalar]) -> [PhonemizedClause] {
        var clauses: [PhonemizedClause] = []
        var words: [String] = []
        var word = ""
        var start = 0
        func endWord() {
            if !word.isEmpty { words.append(word) }
            word = ""
        }
        var kana = ""
        func flushKana() {
            if !kana.isEmpty { word += phonemes(of: kana) }
            kana = ""
        }
        for (index, scalar) in scalars.enumerated() {
            if clauseEnd(scalar) != nil {
                flushKana()
                endWord()
                // Several marks in a row (。」or ！？) end one clause.
                let followsEnd = index + 1 < scalars.count && clauseEnd(scalars[index + 1]) != nil
                guard !followsEnd else { continue }
                clauses.append(PhonemizedClause(phonemes: words.joined(separator: " "), text: start..<(index + 1)))
                words.removeAll()
                start = index + 1
            } else if scalar.properties.isWhitespace || scalar == "・" {
                flushKana()
                endWord()
            } else if hiragana(scalar) != nil {
                kana.unicodeScalars.append(scalar)
            } else if scalar.isASCII, scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                flushKana()
                word.unicodeScalars.append(contentsOf: String(scalar).lowercased().unicodeScalars)
            } else {
                flushKana()
            }
        }
        flushKana()
        endWord()
        if !words.isEmpty || start < scalars.count {
            clauses.append(PhonemizedClause(phonemes: words.joined(separator: " "), text: start..<scalars.count))
        }
        return clauses.filter { !$0.phonemes.isEmpty }
    }
}
