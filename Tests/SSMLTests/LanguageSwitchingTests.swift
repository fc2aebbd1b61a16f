import SSML
import Testing

/// Which voice speaks which part of a message: the runs of text in scripts the voice cannot read,
/// and the segments the segmenter makes of them.
@Suite struct LanguageSwitchingTests {
    private let everyLanguage: Set<String> = ["en", "en-us", "ja", "zh", "yue", "ru", "el", "de", "ko", "ar"]

    private func switching(
        _ language: String, scripts: Set<Script>? = nil, automatic: Bool = true, han: String? = nil
    ) -> LanguageSwitching {
        LanguageSwitching(
            messageLanguage: language, voiceScripts: scripts ?? Script.scripts(ofLanguage: language),
            isAutomatic: automatic, hanLanguage: han, availableLanguages: everyLanguage)
    }

    /// Each run as (language, its text).
    private func runs(_ text: String, _ switching: LanguageSwitching, continuing: String? = nil) -> [(String?, String)] {
        let scalars = Array(text.unicodeScalars)
        return switching.runs(of: text, continuing: continuing).map { run in
            (run.language, String(String.UnicodeScalarView(scalars[run.scalars])))
        }
    }

    private func same(_ left: [(String?, String)], _ right: [(String?, String)]) -> Bool {
        left.count == right.count && zip(left, right).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    @Test func `a Japanese name inside English goes to Japanese and back, spaces staying behind`() {
        let found = runs("Meeting with 田中さん at 3 PM", switching("en-US"))
        #expect(same(found, [(nil, "Meeting with "), ("ja", "田中さん "), (nil, "at 3 PM")]), "\(found)")
    }

    @Test func `Latin inside Japanese goes to LatinLanguage, a lone letter stays`() {
        let found = runs("このPCはAランクです。", switching("ja"))
        #expect(same(found, [(nil, "この"), ("en", "PC"), (nil, "はAランクです。")]), "\(found)")
    }

    @Test func `digits written against the letters after them go with those letters`() {
        let found = runs("We are 3人 and 2025年10月 is near, room 12 ok", switching("en"))
        #expect(
            same(found, [(nil, "We are "), ("zh", "3人 "), (nil, "and "), ("zh", "2025年10月 "), (nil, "is near, room 12 ok")]),
            "\(found)")
    }

    @Test func `Han without kana follows HanLanguage, else Japanese in Japanese and Chinese elsewhere`() {
        #expect(same(runs("Say 你好 now", switching("en")), [(nil, "Say "), ("zh", "你好 "), (nil, "now")]))
        #expect(same(runs("Say 你好 now", switching("en", han: "yue")), [(nil, "Say "), ("yue", "你好 "), (nil, "now")]))
        // A Japanese message read by a voice without kanji (a Latin one): its Han is Japanese.
        #expect(same(runs("Tokyo 東京", switching("ja", scripts: [.latin])), [(nil, "Tokyo "), ("ja", "東京")]))
        // A Chinese voice reads Han itself, but Han written with kana is Japanese.
        #expect(same(runs("你好。ひらがなと漢字", switching("zh")), [(nil, "你好。"), ("ja", "ひらがなと漢字")]))
    }

    @Test func `other scripts go to their languages`() {
        #expect(same(runs("Das Wort Москва ist", switching("de")), [(nil, "Das Wort "), ("ru", "Москва "), (nil, "ist")]))
        #expect(same(runs("the word λόγος here", switching("en")), [(nil, "the word "), ("el", "λόγος "), (nil, "here")]))
        #expect(same(runs("Hello 안녕하세요", switching("en")), [(nil, "Hello "), ("ko", "안녕하세요")]))
        #expect(same(runs("كلمة", switching("en")), [("ar", "كلمة")]))
    }

    @Test func `nothing switches when the voice reads the script, it is off, or no voice speaks the language`() {
        #expect(same(runs("Привет мир", switching("ru")), [(nil, "Привет мир")]))
        #expect(same(runs("Meeting with 田中さん at 3 PM", switching("en", automatic: false)), [(nil, "Meeting with 田中さん at 3 PM")]))
        let noThai = LanguageSwitching(
            messageLanguage: "en", voiceScripts: [.latin], availableLanguages: ["en"])
        #expect(same(runs("say สวัสดี", noThai), [(nil, "say สวัสดี")]))
    }

    @Test func `text of digits and punctuation alone stays in the language before it`() {
        let found = switching("en").runs(of: "12:30 — !", continuing: "ja")
        #expect(found == [LanguageSwitching.Run(language: "ja", scalars: 0..<9, hasLetters: false)])
    }

    @Test func `the segmenter gives each language its segment, a sentence going on without pauses`() {
        let segmenter = Segmenter(languageSwitching: switching("en-US"))
        let segments = segmenter.segments(of: "<speak>Meeting with 田中さん at 3 PM.</speak>")
                // An open `<speak>` has no pause at its end: the next voice goes on at once.
        #expect(segments.map(\.markup) == ["<speak>Meeting with ", "<speak>田中さん ", "<speak>at 3 PM.</speak>"])
        #expect(segments.map(\.language) == [nil, "ja", nil])
        #expect(segments.map(\.pausesAtEnd) == [false, false, true])
        #expect(segments.map(\.continuesSentence) == [false, true, true])
        // Word positions still lead back to the message's text.
        #expect(segments.map { $0.textRuns.map(\.textOffset) } == [[0], [13], [18]])
    }

    @Test func `a comma before a switch keeps its pause, and marks stay in order across switches`() {
        let segmenter = Segmenter(languageSwitching: switching("en"))
        let segments = segmenter.segments(
            of: "<speak><mark name=\"a\"/>Hello, <mark name=\"b\"/>田中さん<mark name=\"c\"/> and you</speak>")
        #expect(segments.map(\.pausesAtEnd) == [true, false, true])
        #expect(segments.map(\.continuesSentence) == [false, false, true])
        #expect(segments.flatMap { $0.leadingMarks + $0.inlineMarks } == ["a", "b", "c"])
    }

    @Test func `markup's xml:lang picks the voice itself, and the engine is not told to switch again`() {
        let segmenter = Segmenter(languageSwitching: switching("en"))
        let segments = segmenter.segments(
            of: "<speak>Say <s xml:lang=\"de\">guten Tag</s> and <lang xml:lang=\"en-GB\">colour</lang>.</speak>")
        #expect(segments.map(\.language) == [nil, "de", nil])
        #expect(segments.map(\.markup) == ["<speak>Say ", "<speak><s>guten Tag</s>", "<speak> and colour.</speak>"])
        // Without switching, the engine gets xml:lang as before.
        #expect(
            Segmenter().segments(of: "<speak><s xml:lang=\"de\">guten Tag</s></speak>").map(\.markup)
                == ["<speak><s xml:lang=\"de\">guten Tag</s></speak>"])
    }

    @Test func `a reader's words replace the text they stand for and map back to it`() {
        /// Reads every Han character as "kan" and leaves kana as written: enough to see the mapping.
        struct HanReader: TextReading {
            var languages: Set<String> { ["ja"] }
            var asked: [String] = []
            mutating func words(of text: String, language: String) -> [ReadingWord] {
                asked.append(text)
                return text.unicodeScalars.enumerated().compactMap { index, scalar in
                    Script.of(scalar) == .han ? ReadingWord(source: index..<index + 1, spoken: "kan") : nil
                }
            }
        }
        let segmenter = Segmenter(languageSwitching: switching("en"))
        let segments = segmenter.segments(of: "<speak>Hi 田中さん</speak>", reader: HanReader())
        #expect(segments.map(\.markup) == ["<speak>Hi ", "<speak> kan  kan さん</speak>"])
        let runs = segments[1].textRuns
        #expect(runs.map(\.textOffset) == [3, 4, 5])
        #expect(runs.map(\.textLength) == [1, 1, nil])
        #expect(runs.map(\.markupOffset) == [8, 13, 17])
    }
}
