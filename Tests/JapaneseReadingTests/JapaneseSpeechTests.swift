import JapaneseReading
import SSML
import TestSupport
import Testing

/// Ordinary sentences with kanji, numbers and punctuation, and the same written by hand in kana.
private let sentences: [(kanji: String, kana: String)] = [
    ("それでは発表します。", "それでははっぴょうします。"),
    ("今日は東京へ行きました。", "きょうはとうきょうへいきました。"),
    ("会議は午後3時から始まります。", "かいぎはごごさんじからはじまります。"),
    ("新しい製品を紹介します！", "あたらしいせいひんをしょうかいします！"),
    ("私たちの会社は大阪にあります。", "わたしたちのかいしゃはおおさかにあります。"),
    ("天気予報によると、明日は雨です。", "てんきよほうによると、あしたはあめです。"),
    ("この資料について質問がありますか？", "このしりょうについてしつもんがありますか？"),
    ("駅の近くに「図書館」ができました。", "えきのちかくに「としょかん」ができました。"),
    ("参加者は20人で、費用は1万円です。", "さんかしゃはにじゅうにんで、ひようはいちまんえんです。"),
]

/// The text as the segmenter gives it to espeak-ng: each word's kana, words apart, the text
/// between words (punctuation) as written.
private func spokenForm(_ text: String, by reader: JapaneseReader) -> String {
    let scalars = Array(text.unicodeScalars)
    var parts: [String] = []
    var position = 0
    for word in reader.words(of: text, language: "ja") {
        parts.append(String(String.UnicodeScalarView(scalars[position..<word.source.lowerBound])))
        parts.append(word.spoken)
        position = word.source.upperBound
    }
    parts.append(String(String.UnicodeScalarView(scalars[position...])))
    return parts.filter { !$0.isEmpty }.joined(separator: " ")
}

/// Seconds of speech espeak-ng's Japanese voice makes of `text`.
private func duration(_ text: String, in folder: TemporaryFolder) throws -> Double {
    let path = folder.file("speech.wav")
    let run = ChildProcess.run(["/usr/bin/espeak-ng", "-v", "ja", "-w", path, text])
    try #require(run.status == 0, "\(run.standardError)")
    let sound = try #require(SoundFileContents(path: path))
    #expect(rootMeanSquare(sound.samples) > 300, "silent: \(text)")
    return sound.duration
}

/// espeak-ng's phonemes for `text` in the Japanese voice.
private func phonemes(_ text: String) throws -> String {
    let run = ChildProcess.run(["/usr/bin/espeak-ng", "-v", "ja", "-q", "-x", text])
    try #require(run.status == 0, "\(run.standardError)")
    return run.standardOutput
}

@Test(arguments: sentences)
func `a sentence with kanji is read as long as its kana writing, with no letter names`(kanji: String, kana: String)
    throws
{
    let reader = try JapaneseReader()
    let folder = TemporaryFolder(prefix: "utter-japanese")
    let spoken = spokenForm(kanji, by: reader)
    let ratio = try duration(spoken, in: folder) / duration(kana, in: folder)
    #expect(ratio >= 0.8 && ratio <= 1.25, "\(kanji) as \(spoken): \(ratio) times its kana writing")
    // espeak-ng switches to English, "(en)", to say "Chinese letter" or "Japanese letter".
    #expect(try phonemes(kanji).contains("(en)"))
    #expect(try !phonemes(spoken).contains("(en)"), "\(spoken)")
}

@Test func `a long vowel is read held, as espeak-ng reads ー after a kana`() throws {
    let reader = try JapaneseReader()
    #expect(try phonemes(spokenForm("東京", by: reader)).contains("t'o:k_jo:"))
    #expect(try phonemes(spokenForm("発表", by: reader)).contains("jo:"))
}
