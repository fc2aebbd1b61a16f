public import SSML

/// Turns the morphemes of a Japanese text into the words a voice is given, each with the kana
/// espeak-ng's Japanese voice reads correctly.
///
/// - A morpheme with a pronunciation is given it (`発表` ハッピョー, the particles `は` ワ and
///   `へ` エ).
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
        var words = WordList()
        var index = 0
        var afterMonth = false  // the last word was a month (`10月`), so `1日` is a date
        while index < morphemes.count {
            let morpheme = morphemes[index]
            if let (word, next, isMonth) = number(in: morphemes, at: index, date: afterMonth) {
                words.append(word, isNumber: true)
                index = next
                afterMonth = isMonth
                continue
            }
            index += 1
            let wasAfterNumber = words.endsWithNumber && words.last?.source.upperBound == morpheme.source.lowerBound
            afterMonth = false
            let scalars = morpheme.surface.unicodeScalars
            if scalars.allSatisfy(Kana.isLongVowelMark) {
                if !words.holdVowel(through: morpheme.source) { words.silence(morpheme.source) }
                continue
            }
            // ipadic cuts the volitional ましょう, でしょう, 行こう into マショ and ウ: said as one long vowel.
            if morpheme.partOfSpeech == "助動詞", morpheme.surface == "う",
                let final = words.last?.spoken.unicodeScalars.last, Kana.oRow.contains(final),
                words.holdVowel(through: morpheme.source)
            {
                continue
            }
            // A wave dash between numbers is "to" (`3〜5人` サン カラ ゴニン); after a word it draws the
            // word's vowel out.
            if scalars.allSatisfy({ $0 == "〜" || $0 == "～" }) {
                if wasAfterNumber, index < morphemes.count, morphemes[index].isNumeral,
                    morphemes[index].source.lowerBound == morpheme.source.upperBound
                {
                    words.append(ReadingWord(source: morpheme.source, spoken: "カラ"))
                } else if !words.holdVowel(through: morpheme.source) {
                    words.silence(morpheme.source)
                }
                continue
            }
            // Espeak-ng says "Japanese letter" for a middle dot (`・` in lists and names) or an
            // iteration mark standing alone: they are read as the pause between words.
            if scalars.allSatisfy(Self.silentMarks.contains) {
                words.silence(morpheme.source)
                continue
            }
            if morpheme.isSymbol && morpheme.subdivision != "アルファベット" {
                guard let pronunciation = morpheme.pronunciation else { continue }
                let spoken = Kana.spoken(pronunciation)
                if !spoken.isEmpty { words.append(ReadingWord(source: morpheme.source, spoken: spoken)) }
                continue
            }
            guard let spoken = spoken(morpheme) else { continue }
            words.append(ReadingWord(source: morpheme.source, spoken: spoken), joiningGeminate: true)
        }
        return words.words
    }

    private static let silentMarks: Set<Unicode.Scalar> = ["・", "･", "ゝ", "ゞ", "ヽ", "ヾ", "〃"]

    /// The words found so far, and the marks waiting to join the next word.
    private struct WordList {
        var words: [ReadingWord] = []
        /// Silent marks not yet in a word: they join the next word when it follows them at once.
        var pending: Range<Int>? = nil
        var endsWithNumber = false

        var last: ReadingWord? { words.last }

        /// Adds a word, taking in the silent marks just before it. With `joiningGeminate`, a word
        /// after one ending in ッ (`行っ` of 行った) is said with it: the voice reads a ッ before a
        /// space as a glottal stop, not as the doubled consonant.
        mutating func append(_ word: ReadingWord, isNumber: Bool = false, joiningGeminate: Bool = false) {
            var word = word
            if let pending, pending.upperBound == word.source.lowerBound {
                word.source = pending.lowerBound..<word.source.upperBound
            }
            pending = nil
            endsWithNumber = isNumber
            if joiningGeminate, let last = words.last, last.source.upperBound == word.source.lowerBound,
                last.spoken.hasSuffix("ッ") || last.spoken.hasSuffix("っ"), Kana.isAllKana(word.spoken)
            {
                words[words.count - 1] = ReadingWord(
                    source: last.source.lowerBound..<word.source.upperBound, spoken: last.spoken + word.spoken)
            } else {
                words.append(word)
            }
        }

        /// A mark read as nothing joins the word before it, or else the word after it.
        mutating func silence(_ source: Range<Int>) {
            if let last = words.last, last.source.upperBound == source.lowerBound {
                words[words.count - 1].source = last.source.lowerBound..<source.upperBound
            } else if let pending, pending.upperBound == source.lowerBound {
                self.pending = pending.lowerBound..<source.upperBound
            } else {
                pending = source
            }
        }

        /// A ー the analyser set apart (`すごーい` as すご, ー, い) holds the vowel of the word before
        /// it; false when there is no such word.
        mutating func holdVowel(through source: Range<Int>) -> Bool {
            guard let last = words.last, last.source.upperBound == source.lowerBound,
                let final = last.spoken.unicodeScalars.last, Kana.isKana(final), final != "ン", final != "ッ"
            else { return false }
            words[words.count - 1] = ReadingWord(
                source: last.source.lowerBound..<source.upperBound, spoken: last.spoken + "ー")
            return true
        }
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

    private static let separators: Set<String> = [",", "，", ".", "．"]

    /// The number starting at `index`, with the counter after it: the word, the index after it,
    /// and whether it is a month.
    private static func number(in morphemes: [Morpheme], at index: Int, date: Bool) -> (ReadingWord, Int, Bool)? {
        guard morphemes[index].isNumeral else { return nil }
        var end = index + 1
        // No number is written with more morphemes than this (`1億2,500万` has six); the bound keeps
        // the shortening below linear on a long run of numerals.
        while end < morphemes.count, end - index < 24,
            morphemes[end].source.lowerBound == morphemes[end - 1].source.upperBound
        {
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
