import Speech
import Testing
import Voices

/// Mandarin through espeak-ng 1.51's voices: chosen as the pinyin voice, read as pinyin words.
@Suite struct MandarinTests {
    @Test func `the pinyin voice speaks Mandarin, and cmn keeps a note saying why`() throws {
        let pinyin = Voice(
            name: "Chinese (Mandarin, latin as Pinyin)", identifier: "espeak-ng:sit/cmn-Latn-pinyin",
            primaryLanguages: [Voice.Language(tag: LanguageTag("cmn-Latn-pinyin")!, priority: 5)],
            supportedLanguages: [Voice.Language(tag: LanguageTag("zh")!, priority: 5)],
            kind: .espeak(engineName: "sit/cmn-Latn-pinyin"))
        let english = Voice(
            name: "Chinese (Mandarin, latin as English)", identifier: "espeak-ng:sit/cmn",
            primaryLanguages: [Voice.Language(tag: LanguageTag("cmn")!, priority: 5)],
            supportedLanguages: [Voice.Language(tag: LanguageTag("zh")!, priority: 5)],
            kind: .espeak(engineName: "sit/cmn"))
        let corrected = EspeakVoiceQuirks.corrected([english, pinyin], version: "1.51")
        #expect(corrected.map(\.identifier) == ["espeak-ng:sit/cmn-Latn-pinyin", "espeak-ng:sit/cmn"])
        #expect(corrected[1].note?.contains("ni three hao three") == true && corrected[0].note == nil)
        let catalogue = VoiceCatalogue(voices: corrected)
        for language in ["zh", "cmn", "zh-CN"] {
            #expect(catalogue.voice(forLanguage: language)?.identifier == "espeak-ng:sit/cmn-Latn-pinyin", "\(language)")
        }
        // Other releases are taken as they are.
        #expect(EspeakVoiceQuirks.corrected([english, pinyin], version: "1.52.0") == [english, pinyin])
    }
}
