import JapaneseKana
import SSML
import Testing

/// A morpheme at `start` with ipadic's features.
private func morpheme(_ start: Int, _ surface: String, _ features: String) -> Morpheme {
    Morpheme(source: start..<start + surface.unicodeScalars.count, surface: surface, features: features)
}

@Test func `the pronunciation is given, particles as spoken, and punctuation stays outside the words`() {
    let morphemes = [
        morpheme(0, "今日", "名詞,副詞可能,*,*,*,*,今日,キョウ,キョー"),
        morpheme(2, "は", "助詞,係助詞,*,*,*,*,は,ハ,ワ"),
        morpheme(3, "、", "記号,読点,*,*,*,*,、,、,、"),
        morpheme(4, "東京", "名詞,固有名詞,地域,一般,*,*,東京,トウキョウ,トーキョー"),
        morpheme(6, "へ", "助詞,格助詞,一般,*,*,*,へ,ヘ,エ"),
        morpheme(7, "。", "記号,句点,*,*,*,*,。,。,。"),
    ]
    #expect(
        JapaneseWords.words(morphemes) == [
            ReadingWord(source: 0..<2, spoken: "キョー"), ReadingWord(source: 2..<3, spoken: "ワ"),
            ReadingWord(source: 4..<6, spoken: "トーキョー"), ReadingWord(source: 6..<7, spoken: "エ"),
        ])
}

@Test func `a number and its counter are one word, commas and decimal points included`() {
    let morphemes = [
        morpheme(0, "1", "名詞,数,*,*,*,*,*"), morpheme(1, ",", "名詞,サ変接続,*,*,*,*,*"),
        morpheme(2, "000", "名詞,数,*,*,*,*,*"), morpheme(5, "円", "名詞,接尾,助数詞,*,*,*,円,エン,エン"),
        morpheme(6, "と", "助詞,並立助詞,*,*,*,*,と,ト,ト"), morpheme(7, "3", "名詞,数,*,*,*,*,*"),
        morpheme(8, ".", "名詞,サ変接続,*,*,*,*,*"), morpheme(9, "5", "名詞,数,*,*,*,*,*"),
        morpheme(10, "キロ", "名詞,接尾,助数詞,*,*,*,キロ,キロ,キロ"),
    ]
    #expect(
        JapaneseWords.words(morphemes) == [
            ReadingWord(source: 0..<6, spoken: "センエン"), ReadingWord(source: 6..<7, spoken: "ト"),
            ReadingWord(source: 7..<12, spoken: "サンテンゴキロ"),
        ])
}

@Test func `a day after a month is a date`() {
    let morphemes = [
        morpheme(0, "10", "名詞,数,*,*,*,*,*"), morpheme(2, "月", "名詞,一般,*,*,*,*,月,ツキ,ツキ"),
        morpheme(3, "1", "名詞,数,*,*,*,*,*"), morpheme(4, "日", "名詞,接尾,助数詞,*,*,*,日,ニチ,ニチ"),
        morpheme(5, "に", "助詞,格助詞,一般,*,*,*,に,ニ,ニ"), morpheme(6, "1", "名詞,数,*,*,*,*,*"),
        morpheme(7, "日", "名詞,接尾,助数詞,*,*,*,日,ニチ,ニチ"),
    ]
    #expect(
        JapaneseWords.words(morphemes) == [
            ReadingWord(source: 0..<3, spoken: "ジューガツ"), ReadingWord(source: 3..<5, spoken: "ツイタチ"),
            ReadingWord(source: 5..<6, spoken: "ニ"), ReadingWord(source: 6..<8, spoken: "イチニチ"),
        ])
}

@Test func `a per cent sign joined to a comma is the number's, the comma stays outside`() {
    let morphemes = [morpheme(0, "5", "名詞,数,*,*,*,*,*"), morpheme(1, "%、", "名詞,サ変接続,*,*,*,*,*")]
    #expect(JapaneseWords.words(morphemes) == [ReadingWord(source: 0..<2, spoken: "ゴパーセント")])
}

@Test func `a long-vowel mark set apart holds the vowel before it, and is dropped after no kana`() {
    let morphemes = [
        morpheme(0, "すご", "形容詞,自立,*,*,*,*,*"), morpheme(2, "ー", "名詞,一般,*,*,*,*,*"),
        morpheme(3, "い", "動詞,自立,*,*,*,*,いる,イ,イ"), morpheme(5, "ー", "記号,一般,*,*,*,*,*"),
    ]
    #expect(
        JapaneseWords.words(morphemes) == [
            ReadingWord(source: 0..<3, spoken: "すごー"), ReadingWord(source: 3..<4, spoken: "イ"),
        ])
}

@Test func `acronyms are spelled in kana, other Latin words and unknown kanji are given as written`() {
    let morphemes = [
        morpheme(0, "ＰＣ", "名詞,固有名詞,組織,*,*,*,*"), morpheme(2, "と", "助詞,並立助詞,*,*,*,*,と,ト,ト"),
        morpheme(3, "NHK", "名詞,固有名詞,組織,*,*,*,*"), morpheme(6, "Hello", "名詞,一般,*,*,*,*,*"),
        morpheme(11, "鬱", "名詞,一般,*,*,*,*,*"), morpheme(12, "ｶﾀｶﾅ", "名詞,一般,*,*,*,*,*"),
        morpheme(16, "、", "名詞,数,*,*,*,*,、,、,、"), morpheme(17, "😀", "記号,一般,*,*,*,*,*"),
    ]
    #expect(
        JapaneseWords.words(morphemes) == [
            ReadingWord(source: 0..<2, spoken: "ピーシー"), ReadingWord(source: 2..<3, spoken: "ト"),
            ReadingWord(source: 3..<6, spoken: "エヌエイチケー"), ReadingWord(source: 6..<11, spoken: "Hello"),
            ReadingWord(source: 11..<12, spoken: "鬱"), ReadingWord(source: 12..<16, spoken: "ｶﾀｶﾅ"),
        ])
}

@Test func `a long-vowel mark with no kana before it is left out of the pronunciation`() {
    #expect(Kana.spoken("ーアー") == "アー")
    #expect(Kana.spoken("ンーッー") == "ンッ")
    #expect(Kana.spoken("マス’") == "マス")
}

@Test func `text is cut at control characters, at sentence ends and spaces near the limit, and at the limit`() {
    let text = Array("あいう\u{0}えお。かきく けこ\nさ".unicodeScalars)
    #expect(TextPieces.pieces(of: text, limit: 1000) == [0..<3, 4..<13, 14..<15])
    #expect(TextPieces.pieces(of: text, limit: 4) == [0..<3, 4..<7, 7..<11, 11..<13, 14..<15])
    #expect(
        TextPieces.pieces(of: Array(String(repeating: "あ", count: 10).unicodeScalars), limit: 4) == [
            0..<4, 4..<8, 8..<10,
        ])
    #expect(TextPieces.pieces(of: Array("\u{0}\u{1}".unicodeScalars)).isEmpty)
}

@Test func `a volitional う after an o is the long vowel of the word before, a ッ is said with the next word`() {
    let morphemes = [
        morpheme(0, "行き", "動詞,自立,*,*,五段・カ行促音便,連用形,行く,イキ,イキ"),
        morpheme(2, "ましょ", "助動詞,*,*,*,特殊・マス,未然ウ接続,ます,マショ,マショ"),
        morpheme(5, "う", "助動詞,*,*,*,不変化型,基本形,う,ウ,ウ"), morpheme(6, "と", "助詞,格助詞,引用,*,*,*,と,ト,ト"),
        morpheme(7, "言っ", "動詞,自立,*,*,五段・ワ行促音便,連用タ接続,言う,イッ,イッ"),
        morpheme(9, "た", "助動詞,*,*,*,特殊・タ,基本形,た,タ,タ"), morpheme(10, "う", "助動詞,*,*,*,不変化型,基本形,う,ウ,ウ"),
    ]
    #expect(
        JapaneseWords.words(morphemes) == [
            ReadingWord(source: 0..<2, spoken: "イキ"), ReadingWord(source: 2..<6, spoken: "マショー"),
            ReadingWord(source: 6..<7, spoken: "ト"), ReadingWord(source: 7..<10, spoken: "イッタ"),
            ReadingWord(source: 10..<11, spoken: "ウ"),
        ])
}

@Test func `a wave dash between numbers is カラ, middle dots and lone marks join a word silently`() {
    let morphemes = [
        morpheme(0, "・", "記号,一般,*,*,*,*,・,・,・"), morpheme(1, "3", "名詞,数,*,*,*,*,*"),
        morpheme(2, "〜", "記号,一般,*,*,*,*,〜,〜,〜"), morpheme(3, "5", "名詞,数,*,*,*,*,*"),
        morpheme(4, "人", "名詞,接尾,助数詞,*,*,*,人,ニン,ニン"), morpheme(5, "・", "記号,一般,*,*,*,*,・,・,・"),
        morpheme(6, "よろしく", "副詞,一般,*,*,*,*,よろしく,ヨロシク,ヨロシク"), morpheme(10, "〜", "記号,一般,*,*,*,*,〜,〜,〜"),
        morpheme(12, "ー", "名詞,一般,*,*,*,*,*"), morpheme(13, "ヽ", "記号,一般,*,*,*,*,*"),
    ]
    #expect(
        JapaneseWords.words(morphemes) == [
            ReadingWord(source: 0..<2, spoken: "サン"), ReadingWord(source: 2..<3, spoken: "カラ"),
            ReadingWord(source: 3..<6, spoken: "ゴニン"), ReadingWord(source: 6..<11, spoken: "ヨロシクー"),
        ])
}
