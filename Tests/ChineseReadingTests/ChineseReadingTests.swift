import ChineseReading
import Glibc
import SSML
import TestSupport
import Testing

/// Ordinary sentences and how a Mandarin speaker reads them in pinyin with tone numbers, from
/// Sentences.tsv (shared with bench/mandarin): the first eight were in view when `ReadingRules`
/// was written, the rest were not.
private let sentences: [(han: String, pinyin: String)] = {
    let folder = String(#filePath.prefix(upTo: #filePath.lastIndex(of: "/")!))
    let table = readText("\(folder)/Sentences.tsv")
    return table.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { row in
        let columns = row.split(separator: "\t", omittingEmptySubsequences: false)
        return (String(columns[0]), String(columns[1]))
    }
}()

/// The voice the reader writes for: espeak-ng's Mandarin reading Latin letters as pinyin.
private let pinyinVoice = "cmn-Latn-pinyin"

/// The text as the segmenter gives it to the voice: each word's spoken form in its place, apart
/// from its neighbours; what lies outside every word as written.
private func voiceText(_ text: String, _ words: [ReadingWord]) -> String {
    let scalars = Array(text.unicodeScalars)
    var result = String.UnicodeScalarView()
    var position = 0
    for word in words {
        result.append(contentsOf: scalars[position..<word.source.lowerBound])
        result.append(contentsOf: " \(word.spoken) ".unicodeScalars)
        position = word.source.upperBound
    }
    result.append(contentsOf: scalars[position...])
    return String(result)
}

private func sourceText(_ text: String, _ word: ReadingWord) -> String {
    String(String.UnicodeScalarView(Array(text.unicodeScalars)[word.source]))
}

/// Seconds of speech espeak-ng renders for `text`, read back through libsndfile.
private func duration(_ text: String, voice: String = pinyinVoice) throws -> Double {
    let folder = TemporaryFolder(prefix: "utter-zh")
    let path = folder.file("speech.wav")
    let run = ChildProcess.run(["/usr/bin/espeak-ng", "-v", voice, "-w", path, text])
    try #require(run.status == 0, "espeak-ng: \(run.standardError)")
    let sound = try #require(SoundFileContents(path: path))
    try #require(rootMeanSquare(sound.samples) > 100, "silent: \(text)")
    return sound.duration
}

/// espeak-ng's phonemes for `text`: `(en)` where it switched to English.
private func phonemes(_ text: String, voice: String = pinyinVoice) throws -> String {
    let run = ChildProcess.run(["/usr/bin/espeak-ng", "-v", voice, "-q", "-x", text])
    try #require(run.status == 0, "espeak-ng: \(run.standardError)")
    return run.standardOutput
}

/// The phonemes alone, without word and stress marks, which differ with the words' cuts.
private func sounds(_ phonemes: String) -> String {
    String(phonemes.filter { !"_|',\n ".contains($0) })
}

private func numberedSyllables(_ text: String) -> [Substring] {
    text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).flatMap { word in
        var syllables: [Substring] = []
        var start = word.startIndex
        for index in word.indices where word[index].isNumber {
            syllables.append(word[start...index])
            start = word.index(after: index)
        }
        return syllables
    }
}

@Test func `the sentences are there`() {
    #expect(sentences.count == 28)
}

@Test(arguments: sentences.prefix(8))
func `a sentence in Han characters is read as its pinyin is`(han: String, pinyin: String) throws {
    var reader = try ChineseReading()
    let spoken = voiceText(han, reader.words(of: han, language: "zh"))
    let read = try phonemes(spoken)
    #expect(!read.contains("(en)"), "English in \(read)")
    #expect(sounds(read) == sounds(try phonemes(pinyin)), "\(han) as \(spoken)")
    let ratio = try duration(spoken) / duration(pinyin)
    #expect(ratio >= 0.8 && ratio <= 1.25, "\(han): \(ratio)")
}

/// Sentences not in view when the rules were written: a neutral tone or a 不 may be read in full.
@Test(arguments: sentences.dropFirst(8))
func `a sentence the rules were not written for is read as its pinyin but for one syllable at most`(
    han: String, pinyin: String
) throws {
    var reader = try ChineseReading()
    let spoken = voiceText(han, reader.words(of: han, language: "zh"))
    let read = try phonemes(spoken)
    #expect(!read.contains("(en)"), "English in \(read)")
    let given = numberedSyllables(spoken)
    let expected = numberedSyllables(pinyin)
    #expect(given.count == expected.count, "\(spoken)")
    #expect(zip(given, expected).filter { $0 != $1 }.count <= 1, "\(han) as \(spoken)")
    let ratio = try duration(spoken) / duration(pinyin)
    #expect(ratio >= 0.8 && ratio <= 1.25, "\(han): \(ratio)")
}

/// Also writes what the voice gets for each sentence to $UTTER_MANDARIN_READINGS, for bench/mandarin.
@Test func `every Han character of the sentences is in a word`() throws {
    var reader = try ChineseReading()
    var readings = ""
    for (han, _) in sentences {
        let words = reader.words(of: han, language: "zh")
        for (index, scalar) in han.unicodeScalars.enumerated() where scalar.properties.isIdeographic {
            #expect(words.contains { $0.source.contains(index) }, "\(han): \(scalar)")
        }
        readings += "\(han)\t\(voiceText(han, words))\n"
    }
    if let path = getenv("UTTER_MANDARIN_READINGS") { writeFile(String(cString: path), readings) }
}

@Test func `words are ICU's dictionary words, mapped to the characters, each one word for the voice`() throws {
    var reader = try ChineseReading()
    let text = "我觉得这个地方很漂亮。"
    let words = reader.words(of: text, language: "zh")
    #expect(words.map { sourceText(text, $0) } == ["我", "觉得", "这个", "地方", "很", "漂亮"])
    #expect(words.map(\.spoken) == ["wo3", "jue2de5", "zhe4ge5", "di4fang5", "hen3", "piao4liang5"])
    #expect(words.map(\.source) == [0..<1, 1..<3, 3..<5, 5..<7, 7..<8, 8..<10])
    // espeak-ng reads each spoken form as one word: one word event per word.
    for word in words {
        let read = try phonemes(word.spoken)
        #expect(read.split(separator: "_|", omittingEmptySubsequences: false).count == 2, "\(word.spoken): \(read)")
    }
}

@Test func `traditional characters are read as the simplified ones`() throws {
    var reader = try ChineseReading()
    let traditional = reader.words(of: "我覺得這個地方很漂亮，銀行在長城。", language: "zh").map(\.spoken)
    let simplified = reader.words(of: "我觉得这个地方很漂亮，银行在长城。", language: "zh").map(\.spoken)
    #expect(traditional == simplified)
    #expect(traditional.contains("yin2hang2"))
}

@Test func `sources count Unicode scalars past characters outside the BMP`() throws {
    var reader = try ChineseReading()
    let text = "🙂 你好！𠀀"
    let words = reader.words(of: text, language: "zh")
    #expect(words.first.map { sourceText(text, $0) } == "你好")
    #expect(words.first?.source == 2..<4)
    #expect(words.first?.spoken == "ni3hao3")
}

@Test func `tone changes of 一 and 不 as spoken, not in numbers and dates`() throws {
    var reader = try ChineseReading()
    let cases: [(String, String)] = [
        ("一个", "yi2ge4"), ("一起", "yi4qi3"), ("一样", "yi2yang4"), ("第一", "di4yi1"), ("十一", "shi2yi1"),
        ("一月", "yi1yue4"), ("不是", "bu2shi4"), ("不好", "bu4hao3"), ("统一", "tong3yi1"),
    ]
    for (text, expected) in cases {
        let spoken = reader.words(of: text, language: "zh").map(\.spoken).joined()
        #expect(spoken == expected, "\(text)")
    }
}

@Test func `frequent words with a character of several readings are read right`() throws {
    var reader = try ChineseReading()
    let cases: [(String, String)] = [
        ("银行", "yin2hang2"), ("音乐", "yin1yue4"), ("睡觉", "shui4jiao4"), ("长城", "chang2cheng2"),
        ("校长", "xiao4zhang3"), ("了解", "liao3jie3"), ("重新", "chong2xin1"), ("慢慢地", "man4man4de5"),
        ("土地", "tu3di4"), ("跑得", "pao3de5"), ("获得", "huo4de2"), ("得到", "de2dao4"), ("很长", "hen3chang2"),
    ]
    for (text, expected) in cases {
        let spoken = reader.words(of: text, language: "zh").map(\.spoken).joined()
        #expect(spoken == expected, "\(text)")
    }
}

@Test func `digits, full-width digits and Latin words stay words, as the voice reads them`() throws {
    var reader = try ChineseReading()
    let text = "我有3个苹果，１２点用Python写。"
    let words = reader.words(of: text, language: "zh")
    let pairs = words.map { "\(sourceText(text, $0))=\($0.spoken)" }
    #expect(pairs.contains("3=3"))
    #expect(pairs.contains("苹果=ping2guo3"))
    #expect(pairs.contains("１２=12"))
    #expect(pairs.contains("Python=Python"))
    let read = try phonemes(voiceText(text, words))
    #expect(!read.isEmpty)
}

@Test func `text without Han characters has no words to rewrite`() throws {
    var reader = try ChineseReading()
    for text in ["", " ", "。，！", "Hello, world", "123"] {
        #expect(reader.words(of: text, language: "zh").isEmpty, "\(text)")
    }
}

@Test func `random text gives ordered words inside it`() throws {
    var reader = try ChineseReading()
    var random = SeededGenerator(seed: 21)
    let pool = Array("你好我们的地方一不了长行，。！？ 123abcＡ１🙂𠀀\u{0301}\n\u{200D}かカ한".unicodeScalars)
    for _ in 0..<2000 {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0..<24, using: &random) { text.append(pool.randomElement(using: &random)!) }
        let string = String(text)
        let words = reader.words(of: string, language: "zh")
        var end = 0
        for word in words {
            #expect(word.source.lowerBound >= end && !word.source.isEmpty, "\(string.debugDescription)")
            #expect(!word.spoken.isEmpty, "\(string.debugDescription)")
            end = word.source.upperBound
        }
        #expect(end <= string.unicodeScalars.count, "\(string.debugDescription)")
    }
}
