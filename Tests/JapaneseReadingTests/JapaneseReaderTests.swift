import JapaneseKana
import JapaneseReading
import SSML
import TestSupport
import Testing

/// Each word as its written text and its kana.
private func readings(_ text: String) throws -> [String] {
    let reader = try JapaneseReader()
    let scalars = Array(text.unicodeScalars)
    return reader.words(of: text, language: "ja").map {
        String(String.UnicodeScalarView(scalars[$0.source])) + "=" + $0.spoken
    }
}

/// Checks what the segmenter relies on: words in order, not overlapping, within the text, spoken
/// by something.
private func checkWords(_ words: [ReadingWord], in text: String) {
    let count = text.unicodeScalars.count
    var end = 0
    for word in words {
        #expect(word.source.lowerBound >= end && word.source.upperBound <= count && !word.source.isEmpty)
        #expect(!word.spoken.isEmpty)
        end = word.source.upperBound
    }
}

@Test func `sentences are cut into words read in kana, mapped to their kanji`() throws {
    #expect(
        try readings("それでは発表します。今日は東京へ行きました。")
            == [
                "それでは=ソレデワ", "発表=ハッピョー", "し=シ", "ます=マス", "今日=キョー", "は=ワ", "東京=トーキョー",
                "へ=エ", "行き=イキ", "まし=マシ", "た=タ",
            ])
    #expect(
        try readings("会議は10月1日の午後3時から、参加者は2人です。")
            == [
                "会議=カイギ", "は=ワ", "10月=ジューガツ", "1日=ツイタチ", "の=ノ", "午後=ゴゴ", "3時=サンジ", "から=カラ",
                "参加=サンカ", "者=シャ", "は=ワ", "2人=フタリ", "です=デス",
            ])
    #expect(
        try readings("価格は1,000円、割引は20%です。ＰＣを3台、ペンを6本。")
            == [
                "価格=カカク", "は=ワ", "1,000円=センエン", "割引=ワリビキ", "は=ワ", "20%=ニジュッパーセント", "です=デス",
                "ＰＣ=ピーシー", "を=ヲ", "3台=サンダイ", "ペン=ペン", "を=ヲ", "6本=ロッポン",
            ])
    #expect(
        try readings("２０２５年に六百人が来ました。") == [
            "２０２５年=ニセンニジューゴネン", "に=ニ", "六百人=ロッピャクニン", "が=ガ", "来=キ", "まし=マシ", "た=タ",
        ])
}

@Test func `volitional endings are one long vowel, and a doubled consonant stays with what follows it`() throws {
    #expect(
        try readings("明日行きましょう。彼は「わかった」と言った。")
            == [
                "明日=アシタ", "行き=イキ", "ましょう=マショー", "彼=カレ", "は=ワ", "わかった=ワカッタ", "と=ト", "言った=イッタ",
            ])
}

@Test func `the reader answers only for Japanese`() throws {
    var reader = try JapaneseReader()
    #expect(reader.languages == ["ja"])
    #expect(reader.words(of: "今日は", language: "zh").isEmpty)
    _ = reader.words(of: "", language: "ja")
    let asText: any TextReading = reader
    #expect(asText.languages == ["ja"])
    reader = try JapaneseReader(dictionary: .ipadicUTF8)
    #expect(reader.dictionary == .ipadicUTF8)
}

@Test func `a missing dictionary is an error that says what to install`() {
    #expect {
        _ = try JapaneseReader(dictionary: JapaneseDictionary(path: "/nonexistent/ipadic"))
    } throws: { error in
        (error as? JapaneseReaderError) == .noDictionary(looked: ["/nonexistent/ipadic"])
            && "\(error)".hasSuffix("Install one: sudo apt install mecab-ipadic-utf8")
    }
}

@Test func `a folder that is no dictionary is refused with MeCab's reason`() throws {
    let folder = TemporaryFolder(prefix: "utter-mecab")
    for name in ["dicrc", "sys.dic", "unk.dic", "matrix.bin", "char.bin"] {
        writeFile(folder.file(name), "not a dictionary\n")
    }
    #expect {
        _ = try JapaneseReader(dictionary: JapaneseDictionary(path: folder.path))
    } throws: { error in
        guard case .openFailed(let path, let reason)? = error as? JapaneseReaderError else { return false }
        return path == folder.path && !reason.isEmpty
    }
}

@Test(arguments: [
    "", " ", "\u{0}", "今日\u{0}は\u{0}", "\u{1}\u{7F}\t\r\n\u{1B}[0m", "か\u{3099}き\u{309A}", "e\u{301}\u{302}\u{303}",
    "😀👍🏽‍🔥🇯🇵", "ｶﾀｶﾅｰﾃｽﾄ､ﾃﾞｽ｡", "ＡＢＣ１２３！？", "ーーー", "々〆〇", "\u{FEFF}\u{200B}\u{202E}日本",
    "1,2,3,,4..5.", "9999999999999999999999兆", "十十十百百千千万万億億兆兆", "𠮷野家", "\u{10FFFF}\u{E000}",
])
func `odd input gives words within the text and never crashes`(text: String) throws {
    let reader = try JapaneseReader()
    checkWords(reader.words(of: text, language: "ja"), in: text)
}

/// Built inside the test from its name: the log would print each whole.
private let longRuns: [String: String] = [
    "70,000 あ": String(repeating: "あ", count: 70_000), "5,000 鬱": String(repeating: "鬱", count: 5000),
    "70,000 A": String(repeating: "A", count: 70_000), "3,000 digits": String(repeating: "1", count: 3000),
    "3,000 。": String(repeating: "。", count: 3000),
]

@Test(arguments: longRuns.keys.sorted())
func `long runs of one character give words within the text`(what: String) throws {
    let text = try #require(longRuns[what])
    let reader = try JapaneseReader()
    checkWords(reader.words(of: text, language: "ja"), in: text)
}

@Test func `a megabyte message is read whole`() throws {
    let sentence = "今日は東京へ行きました。"
    let text = String(repeating: sentence, count: 1_048_576 / sentence.utf8.count)
    let reader = try JapaneseReader()
    let words = reader.words(of: text, language: "ja")
    checkWords(words, in: text)
    #expect(words.count == 7 * (1_048_576 / sentence.utf8.count))
    #expect(words.last?.source.upperBound == text.unicodeScalars.count - 1)
}

@Test func `random text gives words within it`() throws {
    let reader = try JapaneseReader()
    var random = SeededGenerator(seed: 21)
    let pieces = ["今日", "は", "東京", "1", "２", ",", ".", "人", "本", "ー", "。", "ｱ", "A", " ", "\u{0}", "😀", "\u{301}", "万"]
    for _ in 0..<500 {
        let text = (0..<Int.random(in: 0...30, using: &random)).map { _ in pieces.randomElement(using: &random)! }
            .joined()
        checkWords(reader.words(of: text, language: "ja"), in: text)
    }
}
