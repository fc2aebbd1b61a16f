import Testing
import Voices

func language(_ tag: String, _ priority: Int) -> Voice.Language {
    Voice.Language(tag: LanguageTag(tag)!, priority: priority)
}

func voice(_ name: String, _ languages: [Voice.Language]) -> Voice {
    Voice(
        name: name, identifier: "test:\(name)", primaryLanguages: [languages[0]],
        supportedLanguages: Array(languages.dropFirst()), kind: .espeak(engineName: name))
}

/// A small catalogue shaped like espeak-ng's English voices.
let catalogue = VoiceCatalogue(voices: [
    voice("English (Great Britain)", [language("en-gb", 2), language("en", 2)]),
    voice("English (America)", [language("en-us", 2), language("en", 3)]),
    voice("English (Lancaster)", [language("en-gb-x-gbclan", 5), language("en-gb", 3), language("en", 5)]),
    voice("German", [language("de", 5)]),
    voice("Chinese (Mandarin, latin as Pinyin)", [language("cmn-latn-pinyin", 5), language("zh", 5)]),
])

@Test func `language tags get their conventional casing and compare case-insensitively`() {
    #expect(LanguageTag("EN_us")?.description == "en-US")
    #expect(LanguageTag("cmn-latn-pinyin")?.description == "cmn-Latn-pinyin")
    #expect(LanguageTag("en-gb-x-rp")?.description == "en-GB-x-rp")
    #expect(LanguageTag("en-029")?.description == "en-029")
    #expect(LanguageTag("de-DE") == LanguageTag("de-de"))
    #expect(LanguageTag("") == nil)
    #expect(LanguageTag("en--us") == nil)
}

@Test func `every voice is listed under each of its languages with unique names`() {
    let lines = catalogue.listings.map { "\($0.name)|\($0.language)" }
    #expect(
        lines.prefix(3) == [
            "English (Great Britain)|en-GB", "English (Great Britain) [en]|en", "English (America)|en-US",
        ])
    #expect(Set(catalogue.listings.map { $0.name.lowercased() }).count == catalogue.listings.count)
    #expect(catalogue.listings.count == 10)
}

@Test func `LIST VOICES with a language lists that tag, or every tag of a bare language`() {
    #expect(catalogue.listings(language: "de").map(\.name) == ["German"])
    #expect(catalogue.listings(language: "de-AT").isEmpty)
    #expect(catalogue.listings(language: "EN-us").map(\.name) == ["English (America)"])
    #expect(
        catalogue.listings(language: "en").map(\.language.description) == [
            "en-GB", "en", "en-US", "en", "en-GB-x-gbclan", "en-GB", "en",
        ])
    #expect(catalogue.listings(language: "xx").isEmpty)
    #expect(catalogue.listings(language: nil).count == catalogue.listings.count)
}

func selected(_ synthesisVoice: String?, _ language: String?, defaultVoice: String? = nil) -> String? {
    catalogue.select(
        synthesisVoice: synthesisVoice, language: language, defaultVoice: defaultVoice, defaultLanguage: "en-US")?.voice
        .name
}

@Test func `a listed synthesis voice wins, whatever the language`() {
    #expect(selected("German", "en-us") == "German")
    #expect(selected("english (america) [en]", "de") == "English (America)")
    #expect(selected("test:German", nil) == "German")
}

@Test func `the language chooses by full tag, then primary subtag, primary languages first`() {
    #expect(selected(nil, "en-us") == "English (America)")
    #expect(selected(nil, "en-GB") == "English (Great Britain)")
    #expect(selected(nil, "en") == "English (Great Britain)")
    #expect(selected(nil, "en-au") == "English (Great Britain)")
    #expect(selected(nil, "de-de") == "German")
    #expect(selected(nil, "zh-cn") == "Chinese (Mandarin, latin as Pinyin)")
}

@Test func `unknown voices and languages still speak`() {
    #expect(selected("bleaaaarg", "fr-FR") == "English (America)")
    #expect(selected("no such voice", "de-de") == "German")
    #expect(selected(nil, "c") == "English (America)")
    #expect(selected(nil, nil, defaultVoice: "German") == "German")
    #expect(
        VoiceCatalogue(voices: []).select(synthesisVoice: nil, language: "en", defaultVoice: nil, defaultLanguage: "en")
            == nil)
}
