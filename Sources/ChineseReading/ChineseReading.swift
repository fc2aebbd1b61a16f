public import SSML

/// Mandarin written in Han characters, cut into words by ICU's dictionary and given to the voice as
/// pinyin with tone numbers, one run-together word per word (`我们` is read as `wo3men5`).
///
/// For espeak-ng's `cmn-Latn-pinyin` voice ("Chinese (Mandarin, latin as Pinyin)"), which reads
/// such pinyin as Mandarin. espeak-ng 1.51's `cmn` voice reads Han characters as pinyin spelled in
/// English ("ni three hao three"), and all Latin text as English, tone digits included. Words
/// come from ICU's dictionary word break, one word event each; readings from ICU's Han-Latin
/// transliterator, one per character (traditional characters read as their simplified ones),
/// corrected for the commonest words with several readings and for the tone changes of 一 and 不
/// (`ReadingRules`); words ICU does not know are cut into shorter ones, often single characters.
///
/// A word mixing Han characters with letters or digits (`T恤`) is spoken as two words (`T xu4`):
/// run together, espeak-ng would misread them.
///
/// The first reader in a process takes 0.1-0.2 s to open (ICU compiles Han-Latin's rules, then
/// keeps them for later readers) and about 8 MiB: make it before the first Chinese message, and
/// keep it. It is not safe to share between threads.
public struct ChineseReading: TextReading {
    public var languages: Set<String> { ["zh", "cmn"] }

    private let hanLatin: Transliterator
    private let simplified: Transliterator
    /// Han-Latin's reading of each character met so far: transliterating is the slow part.
    private var readings: [Unicode.Scalar: Syllable?] = [:]

    /// Opens ICU's Han-Latin and Hant-Hans transliterators; throws when the installed ICU data
    /// lacks them.
    public init() throws(ChineseReadingError) {
        hanLatin = try Transliterator("Han-Latin")
        simplified = try Transliterator("Hant-Hans")
    }

    public mutating func words(of text: String, language: String) -> [ReadingWord] {
        let utf16 = Array(text.utf16)
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains(where: isHan) || scalars.contains(where: { Self.fullWidth($0) != nil }) else {
            return []
        }
        // ICU counts in UTF-16 units, words in scalars.
        var scalarAt = [Int](repeating: 0, count: utf16.count + 1)
        var unit = 0
        for (index, scalar) in scalars.enumerated() {
            for offset in 0..<UTF16.width(scalar) { scalarAt[unit + offset] = index }
            unit += UTF16.width(scalar)
        }
        scalarAt[utf16.count] = scalars.count

        let segments = ICUWords.segments(of: utf16)
            .filter(\.isWord)
            .map { scalarAt[$0.range.lowerBound]..<scalarAt[$0.range.upperBound] }
            .filter { !$0.isEmpty }
        // Traditional characters are read as their simplified ones, in which the rules are written;
        // ICU simplifies character for character, but the text stays as written if it did not.
        var characters = scalars
        if let simple = simplified.transliterate(text).map({ Array($0.unicodeScalars) }), simple.count == scalars.count {
            characters = simple
        }
        var syllables = [Syllable?](repeating: nil, count: scalars.count)
        for range in segments { read(characters[range], into: &syllables, at: range.lowerBound) }
        ReadingRules.applyToneChanges(&syllables, scalars: characters)
        return segments.map { range in
            ReadingWord(source: range, spoken: spoken(range, scalars: scalars, syllables: syllables))
        }
    }

    /// The readings of one word's Han characters: the table's words found in it (ICU's word may
    /// join several, 昨天晚上), else each character's.
    private mutating func read(_ word: ArraySlice<Unicode.Scalar>, into syllables: inout [Syllable?], at start: Int) {
        let characters = Array(word)
        var offset = 0
        while offset < characters.count {
            if let (length, known) = ReadingRules.longestWord(in: characters, at: offset) {
                for (index, syllable) in known.enumerated() { syllables[start + offset + index] = syllable }
                offset += length
                continue
            }
            let scalar = characters[offset]
            if isHan(scalar) {
                let reduplicated = offset >= 2 && characters[offset - 1] == characters[offset - 2]
                syllables[start + offset] =
                    ReadingRules.positional(scalar, position: offset, length: characters.count, reduplicated: reduplicated)
                    ?? reading(of: scalar)
            }
            offset += 1
        }
    }

    private mutating func reading(of scalar: Unicode.Scalar) -> Syllable? {
        if let known = readings[scalar] { return known }
        let syllable = hanLatin.transliterate(String(scalar)).flatMap(Syllable.init(marked:))
        readings[scalar] = syllable
        return syllable
    }

    /// A word as the voice gets it: syllables run together, anything else (digits, Latin, a
    /// character ICU has no reading for) as written, apart from the syllables.
    private func spoken(_ range: Range<Int>, scalars: [Unicode.Scalar], syllables: [Syllable?]) -> String {
        var spoken = ""
        var lastWasSyllable: Bool?
        for index in range {
            let isSyllable = syllables[index] != nil
            if let lastWasSyllable, lastWasSyllable != isSyllable { spoken += " " }
            if let syllable = syllables[index] {
                spoken += syllable.numbered
            } else {
                spoken.unicodeScalars.append(Self.fullWidth(scalars[index]) ?? scalars[index])
            }
            lastWasSyllable = isSyllable
        }
        return spoken
    }

    /// The ASCII letter or digit a full-width one stands for (espeak-ng says nothing for `１２`).
    private static func fullWidth(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        guard (0xFF10...0xFF19).contains(scalar.value) || (0xFF21...0xFF3A).contains(scalar.value)
            || (0xFF41...0xFF5A).contains(scalar.value)
        else { return nil }
        return Unicode.Scalar(scalar.value - 0xFEE0)
    }
}
