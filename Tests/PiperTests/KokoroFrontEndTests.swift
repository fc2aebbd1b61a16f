import Piper
import SSML
import Testing

/// Kokoro's Japanese front end: kana to the phonemes misaki's romanizer gives (the mapping
/// Kokoro's Japanese voices were trained with), clauses, sentences within the model's context.
@Suite struct KanaPhonemesTests {
    @Test(arguments: [
        // ん by the kana after it: m before m/p/b, ŋ before k/ɡ, ɲ before ɲ/ʨ/ʥ, n before n/t/d/ɾ/z, ɴ otherwise.
        ("サンマ", "samma"), ("サンポ", "sampo"), ("シンブン", "ɕimbɯɴ"),
        ("ギンコー", "ɡʲiŋkoː"), ("リンゴ", "ɾʲiŋɡo"),
        ("コンニチワ", "koɲɲiʨiβa"), ("コンニャク", "koɲɲakɯ"), ("ゲンジツ", "ɡeɲʥiʦɨ"),
        ("カンダ", "kanda"), ("ホンネ", "honne"), ("ベンリ", "benɾʲi"), ("カンジ", "kaɲʥi"),
        ("ホン", "hoɴ"), ("レンアイ", "ɾeɴai"), ("デンワ", "deɴβa"),
        // っ as a glottal stop, ー as length, small kana joined to the kana before them.
        ("キッテ", "kʲiʔte"), ("ハッピョー", "haʔpʲoː"), ("トーキョー", "toːkʲoː"),
        ("シャシン", "ɕaɕiɴ"), ("ジュギョー", "ʥɨɡʲoː"), ("チョット", "ʨoʔto"),
        ("ファイル", "ɸaiɾɯ"), ("ティー", "tʲiː"), ("ヴァイオリン", "vaioɾʲiɴ"), ("ウィ", "βi"),
        // ぢ and づ as じ and ず; し, ち, つ, す, ふ.
        ("ヂ", "ʥi"), ("ツヅク", "ʦɨzɨkɯ"), ("スシ", "sɨɕi"), ("フネ", "ɸɯne"),
        // The particles as MeCab pronounces them: は ワ, へ エ, を ヲ.
        ("ワ", "βa"), ("エ", "e"), ("ヲ", "o"),
        // Hiragana as katakana; an iteration mark repeats (ゞ voiced).
        ("きょう", "kʲoɯ"), ("いすゞ", "isɨzɨ"), ("ここゝ", "kokoko"),
        // Anything not kana is left out.
        ("カ漢タ", "kata"),
    ])
    func `kana become Kokoro's phonemes`(kana: String, phonemes: String) {
        #expect(KanaPhonemes.phonemes(of: kana) == phonemes)
    }

    @Test func `a Japanese sentence's kana words become one clause each up to its punctuation`() {
        let text = Array("ソレデワ 、 ハッピョー シ マス 。 ハイ ！？".unicodeScalars)
        let clauses = KanaPhonemes.clauses(of: text)
        #expect(clauses.map(\.phonemes) == ["soɾedeβa", "haʔpʲoː ɕi masɨ", "hai"])
        // Each clause's text ends after its punctuation (the two marks of ！？ end one clause).
        #expect(clauses.map(\.text) == [0..<6, 6..<19, 19..<25])
    }

    @Test func `Latin letters and digits inside Japanese are kept as Kokoro reads them`() {
        let clauses = KanaPhonemes.clauses(of: Array("OS ノ Ver 2 。".unicodeScalars))
        #expect(clauses.map(\.phonemes) == ["os no ver 2"])
    }

    @Test func `sentences of kana clauses end with Kokoro's punctuation and keep each word's first phoneme`() {
        let text = NeuralText(segment: SpeechSegment(markup: "ソレデワ 、 ハッピョー シ マス 。 ハイ 。"))
        let clauses = KanaPhonemes.clauses(of: text.scalars)
        let sentences = PiperSentence.sentences(text: text, clauses: clauses, realigns: false)
        #expect(sentences.map { String(String.UnicodeScalarView($0.phonemes)) } == ["soɾedeβa, haʔpʲoː ɕi masɨ.", "hai."])
        #expect(sentences[0].words.map(\.phoneme) == [0, 10, 18, 21])
        #expect(sentences[0].words.map(\.text) == [0..<4, 7..<12, 13..<14, 15..<17])
    }

    @Test func `a sentence longer than the model's context is cut at a clause, a clause at a word`() {
        let words = Array(repeating: "アイウエオ", count: 30).joined(separator: " ")
        let text = NeuralText(segment: SpeechSegment(markup: "\(words) 、 \(words) 。"))
        let clauses = KanaPhonemes.clauses(of: text.scalars)
        // 30 words of 5 phonemes, a space between: 179 a clause.
        let atClauses = PiperSentence.sentences(text: text, clauses: clauses, realigns: false, maximumPhonemes: 200)
        #expect(atClauses.map(\.phonemes.count) == [180, 180])
        #expect(atClauses.map(\.words.count) == [30, 30])
        let atWords = PiperSentence.sentences(text: text, clauses: clauses, realigns: false, maximumPhonemes: 100)
        #expect(atWords.allSatisfy { $0.phonemes.count <= 100 })
        #expect(atWords.flatMap(\.words).map(\.text) == atClauses.flatMap(\.words).map(\.text), "no word lost")
        #expect(atWords.count == 4)
    }
}

@Suite struct KokoroFilesTests {
    /// An `.npy` file's bytes: version 1, the header padded with spaces to a multiple of 64.
    static func npy(descr: String = "<f4", fortran: Bool = false, shape: [Int], values: [Float], cut: Int = 0) -> [UInt8] {
        let dims = shape.map(String.init).joined(separator: ", ") + (shape.count == 1 ? "," : "")
        var header = "{'descr': '\(descr)', 'fortran_order': \(fortran ? "True" : "False"), 'shape': (\(dims)), }"
        while (10 + header.utf8.count + 1) % 64 != 0 { header += " " }
        header += "\n"
        var bytes: [UInt8] = [0x93] + Array("NUMPY".utf8) + [1, 0, UInt8(header.utf8.count & 0xFF), UInt8(header.utf8.count >> 8)]
        bytes += Array(header.utf8)
        for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 } }
        return Array(bytes.dropLast(cut))
    }

    @Test func `a float32 npy array is read with its shape and values`() throws {
        let values = (0..<6).map { Float($0) / 4 }
        let array = try NumpyArray.read(Self.npy(shape: [3, 1, 2], values: values)).get()
        #expect(array == NumpyArray(shape: [3, 1, 2], values: values))
    }

    @Test func `an npy array that is not little-endian float32 in C order, or is cut short, is refused by name`() {
        func problem(_ bytes: [UInt8]) -> String? {
            if case .failure(let problem) = NumpyArray.read(bytes) { problem.description } else { nil }
        }
        #expect(problem(Self.npy(descr: "<f8", shape: [2], values: [1, 2])) == "its values are '<f8', not little-endian float32 ('<f4')")
        #expect(problem(Self.npy(fortran: true, shape: [2], values: [1, 2])) == "its values are in Fortran order")
        #expect(problem(Self.npy(shape: [2, 2], values: [1, 2, 3, 4], cut: 1)) == "it holds fewer values than its shape (2, 2) says")
        #expect(problem(Self.npy(shape: [1 << 20, 1 << 20], values: [])) == "it holds fewer values than its shape (1048576, 1048576) says")
        #expect(problem(Array("PK\u{3}\u{4}not an array".utf8)) == "not a .npy array")
        #expect(problem(Array(Self.npy(shape: [2], values: [1, 2]).prefix(20))) == "its header is cut short")
    }

    @Test func `Kokoro's vocabulary is read with the pack's wrapper or without, and a bad entry is named by line`() throws {
        let vocabulary = try KokoroVocabulary.parse(KokoroVocabulary.kokoroV1).get()
        #expect(vocabulary.count == 114)
        #expect(vocabulary["ɕ"] == 77 && vocabulary["ʔ"] == 148 && vocabulary["ː"] == 158 && vocabulary[" "] == 16)
        #expect(try KokoroVocabulary.parse("{\"a\": 43, \"b\": 44}").get() == ["a": 43, "b": 44])
        func problem(_ text: String) -> String? {
            if case .failure(let problem) = KokoroVocabulary.parse(text) { problem.description } else { nil }
        }
        #expect(problem("{\"vocab\": {\n\"ab\": 1}}") == "line 2: \"ab\" is not one character")
        #expect(problem("{\"vocab\": {\"a\": 1.5}}") == "line 1: the id of \"a\" is not a whole number 0…65535")
        #expect(problem("{\"vocab\": []}") == "line 1: vocab is not an object")
        #expect(problem("{}") == "it has no symbols")
        #expect(problem("[1]") == "not a JSON object")
    }

    @Test func `a Kokoro voice's name says its language`() {
        #expect(KokoroVoiceName("jf_alpha") == KokoroVoiceName("jm_kumo"))
        #expect(KokoroVoiceName("jf_alpha")?.language == "ja-JP" && KokoroVoiceName("jf_alpha")?.readsKana == true)
        #expect(KokoroVoiceName("af_heart")?.language == "en-US" && KokoroVoiceName("af_heart")?.espeakVoice == "en-us")
        #expect(KokoroVoiceName("zf_xiaobei")?.espeakVoice == "cmn")
        #expect(KokoroVoiceName("xx") == nil && KokoroVoiceName("") == nil)
    }
}
