public import SSML

/// Turns the morphemes of a Japanese text into the words a voice is given, each with the kana
/// espeak-ng's Japanese voice reads correctly.
///
/// - A morpheme with a pronunciation is given it (`発表` ハッピョー, the particle `は` ワ).
/// - Numbers are read whole, with the counter after them (`2025年` ニセンニジューゴネン, `3本`
///   サンボン): one word from the first digit to the counter.
/// - Acronyms of up to six capitals are spelled as Japanese readers say them (`PC` ピーシー).
/// - Other morphemes without a pronunciation are given as written: kana is read as it is, a Latin
///   word is left to the voice (espeak-ng spells it with its English letters), and a kanji the
///   dictionary does not know is spoken by the voice as it speaks any kanji.
/// - Punctuation and symbols are no words: they stay in the text, where the voice pauses at
///   `。、！？` as it does in kana text.
public enum JapaneseWords {
    /// The words of the morphemes, in order; morphemes must be in order and not overlap.
    public static func words(_ morphemes: [Morpheme]) -> [ReadingWord] {
        var words: [ReadingWord] = []
        var index = 0
        var afterMonth = false  // the last word was a month (`10月`), so `1日` is a date
        while index < morphemes.count {
            let morpheme = morphemes[index]
            if let (word, next, isMonth) = number(in: morphemes, at: index, date: afterMonth) {
                words.append(word)
                index = next
                afterMonth = isMonth
                continue
            }
            index += 1
            afterMonth = false
            if morpheme.surface.unicodeScalars.allSatisfy(Kana.isLongVowelMark) {
                _ = holdVowel(of: &words, through: morpheme.source)
                continue
            }
            // ipadic cuts the volitional ましょう, でしょう, 行こう into マショ and ウ: said as one long vowel.
            if morpheme.partOfSpeech == "助動詞", morpheme.surface == "う",
                let final = words.last?.spoken.unicodeScalars.last, Kana.oRow.contains(final),
                holdVowel(of: &words, through: morpheme.source)
            {
                continue
            }
            if morpheme.isSymbol && morpheme.subdivision != "アルファベット" {
                guard let pronunciation = morpheme.pronunciation else { continue }
                let spoken = Kana.spoken(pronunciation)
                if !spoken.isEmpty { words.append(ReadingWord(source: morpheme.source, spoken: spoken)) }
                continue
            }
            guard let spoken = spoken(morpheme) else { continue }
            let word = ReadingWord(source: morpheme.source, spoken: spoken)
            // A word ending in ッ (`行っ` of 行った) is said with the next one: the voice reads a ッ
            // before a space as a glottal stop, not as the doubled consonant.
            if let last = words.last, last.source.upperBound == word.source.lowerBound,
                last.spoken.hasSuffix("ッ") || last.spoken.hasSuffix("っ"), Kana.isAllKana(spoken)
            {
                words[words.count - 1] = ReadingWord(
                    source: last.source.lowerBound..<word.source.upperBound, spoken: last.spoken + spoken)
            } else {
                words.append(word)
            }
        }
        return words
    }

    private static func spoken(_ morpheme: Morpheme) -> String? {
        if let letters = Kana.acronym(morpheme.surface) { return letters }
        if let pronunciation = morpheme.pronunciation {
            let spoken = Kana.spoken(pronunciation)
            if !spoken.isEmpty { return spoken }
        }
        if Kana.isAllKana(morpheme.surface) {
            let spoken = Kana.spoken(morpheme.surface)
            return spoken.isEmpty ? nil : spoken
        }
        // Punctuation the dictionary files as something else (`、` as a numeral) is no word either.
        let letters = morpheme.surface.unicodeScalars.contains {
            $0.properties.isAlphabetic || $0.properties.numericType != nil
        }
        return letters ? morpheme.surface : nil
    }

    /// A ー the analyser set apart (`すごーい` as すご, ー, い) holds the vowel of the word before it;
    /// false when there is no such word.
    private static func holdVowel(of words: inout [ReadingWord], through source: Range<Int>) -> Bool {
        guard let last = words.last, last.source.upperBound == source.lowerBound,
            let final = last.spoken.unicodeScalars.last, Kana.isKana(final), final != "ン", final != "ッ"
        else { return false }
        words[words.count - 1] = ReadingWord(
            source: last.source.lowerBound..<source.upperBound, spoken: last.spoken + "ー")
        return true
    }

    private static let separators: Set<String> = [",", "，", ".", "．"]

    /// The number starting at `index`, with the counter after it: the word, the index after it,
    /// and whether it is a month.
    private static func number(in morphemes: [Morpheme], at index: Int, date: Bool) -> (ReadingWord, Int, Bool)? {
        guard morphemes[index].isNumeral else { return nil }
        var end = index + 1
        while end < morphemes.count, morphemes[end].source.lowerBound == morphemes[end - 1].source.upperBound {
            let next = morphemes[end]
            if next.isNumeral {
                end += 1
            } else if separators.contains(next.surface), end + 1 < morphemes.count, morphemes[end + 1].isNumeral,
                morphemes[end + 1].source.lowerBound == next.source.upperBound
            {
                end += 2
            } else {
                break
            }
        }
        // The longest run that reads as a number (`1,00` is read up to its comma).
        while end > index {
            let text = morphemes[index..<end].map(\.surface).joined()
            if let number = JapaneseNumber(text) {
                let start = morphemes[index].source.lowerBound
                if end < morphemes.count, morphemes[end].source.lowerBound == morphemes[end - 1].source.upperBound {
                    let next = morphemes[end]
                    if let reading = number.reading(counter: next.surface, date: date) {
                        let word = ReadingWord(source: start..<next.source.upperBound, spoken: reading)
                        return (word, end + 1, next.surface == "月")
                    }
                    // MeCab joins a per cent sign to the punctuation after it (`%、`): the word takes the sign alone.
                    if let sign = next.surface.unicodeScalars.first, sign == "%" || sign == "％",
                        let reading = number.reading(counter: String(sign))
                    {
                        // The rest of that morpheme stays outside every word, as punctuation does.
                        let word = ReadingWord(source: start..<next.source.lowerBound + 1, spoken: reading)
                        return (word, end + 1, false)
                    }
                }
                let word = ReadingWord(source: start..<morphemes[end - 1].source.upperBound, spoken: number.reading)
                return (word, end, false)
            }
            end -= 1
        }
        return nil
    }
}
