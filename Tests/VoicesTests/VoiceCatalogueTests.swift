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

/// A clip voice of `languages` (the first its own), its other text spoken by espeak-ng's en-us.
func clipVoice(_ name: String, _ languages: [Voice.Language]) -> Voice {
    Voice(
        name: name, identifier: "clips:\(name.lowercased())", primaryLanguages: [languages[0]],
        supportedLanguages: Array(languages.dropFirst()),
        kind: .clips(ClipVoice(folder: "/nonexistent", phrases: PhraseBook([]), fallbackEngineName: "en-us")))
}

/// A Piper voice of `tag`, its fallback espeak-ng's en-us.
func neuralVoice(_ name: String, _ tag: String) -> Voice {
    Voice(
        name: name, identifier: "neural:\(name)", primaryLanguages: [language(tag, 5)],
        kind: .neural(
            NeuralVoice(
                model: "/\(name).onnx", config: "/\(name).onnx.json", speaker: nil, fallbackEngineName: "en-us",
                runtimeLibrary: "libonnxruntime.so", threads: 1)))
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

@Test func `a tag's region is its letters or its number, never a private use part`() {
    #expect(LanguageTag("en-US")?.region == "US")
    #expect(LanguageTag("en-029")?.region == "029")
    #expect(LanguageTag("en-GB-x-rp")?.region == "GB")
    #expect(LanguageTag("cmn-latn-pinyin")?.region == nil)
    #expect(LanguageTag("en")?.region == nil)
    #expect(LanguageTag("en-x-gb")?.region == nil)
    #expect(LanguageTag("es-419")?.region == "419")
}

@Test func `every voice is listed under each of its languages with unique names`() {
    let lines = catalogue.listings.map { "\($0.name)|\($0.language)" }
    #expect(
        lines == [
            "English (Great Britain)|en-GB", "English (America)|en-US", "English (Lancaster)|en-GB-x-gbclan",
            "English (Lancaster) [en-GB]|en-GB", "English (Great Britain) [en]|en", "English (America) [en]|en",
            "English (Lancaster) [en]|en", "German|de", "Chinese (Mandarin, latin as Pinyin)|cmn-Latn-pinyin",
            "Chinese (Mandarin, latin as Pinyin) [zh]|zh",
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
            "en-GB", "en-US", "en-GB-x-gbclan", "en-GB", "en", "en", "en",
        ])
    #expect(catalogue.listings(language: "xx").isEmpty)
    #expect(catalogue.listings(language: nil).count == catalogue.listings.count)
}

@Test func `a locale's first listed voice is the one made for it, as clients that take the first read them`() {
    // Qt reads en, en-029 and en-US alike as en_US, and takes the first voice listed for it.
    let caribbean = VoiceCatalogue(voices: [
        voice("English (Caribbean)", [language("en-029", 5), language("en", 10)]),
        voice("English (Great Britain)", [language("en-gb", 2), language("en", 2)]),
        voice("English (America)", [language("en-us", 2), language("en", 3)]),
        voice("Spanish (Latin America)", [language("es-419", 5), language("es-mx", 6)]),
        voice("Spanish (Spain)", [language("es", 5)]),
    ])
    let readAsUS = caribbean.listings.filter { ["en", "en-us", "en-029"].contains($0.language.key) }
    #expect(readAsUS.first?.name == "English (America)")
    #expect(caribbean.listings.first { $0.language.primaryLanguage == "es" }?.name == "Spanish (Latin America) [es-MX]")
    #expect(caribbean.listings.suffix(2).map(\.name) == ["English (Caribbean)", "Spanish (Latin America)"])
    // The order does not change which voice a message chooses.
    #expect(
        caribbean.select(synthesisVoice: nil, language: "en", defaultVoice: nil, defaultLanguage: "en-US")?.voice.name
            == "English (Great Britain)")
}

@Test func `recorded and neural voices say what they are in the list, and answer to both names`() throws {
    let greeter = clipVoice("Greeter", [language("en-us", 5), language("en-gb", 5)])
    let named = VoiceCatalogue(
        voices: [voice("English (America)", [language("en-us", 2)]), greeter, neuralVoice("joe", "en-us")])
    // A locale's best voice first: neural, recorded, espeak-ng.
    #expect(
        named.listings.map(\.name) == [
            "joe (neural)", "Greeter (recorded)", "Greeter (recorded) [en-GB]", "English (America)",
        ])
    for name in ["Greeter", "greeter (RECORDED)", "Greeter (recorded) [en-GB]", "clips:greeter"] {
        #expect(named.voice(named: name)?.identifier == "clips:greeter", "\(name)")
    }
    #expect(named.voice(named: "joe (neural)")?.identifier == "neural:joe")
    #expect(named.engineVoiceNames["joe (neural)"] == "en-us")
}

/// A neural, a recorded and espeak-ng's voices of one language, and a LanguageVoice choice.
private func kindsCatalogue(languageVoices: [String: String] = [:]) -> VoiceCatalogue {
    VoiceCatalogue(
        voices: catalogue.voices + [clipVoice("Greeter", [language("en-gb", 5)]), neuralVoice("joe", "en-us")],
        languageVoices: languageVoices)
}

@Test func `a language named without a voice gets its best installed voice: neural, then recorded, then espeak-ng`() {
    let kinds = kindsCatalogue()
    func chosen(_ language: String) -> String? {
        kinds.select(synthesisVoice: nil, language: language, defaultVoice: nil, defaultLanguage: "de")?.voice.name
    }
    #expect(chosen("en-US") == "joe")
    #expect(chosen("en-GB") == "Greeter")
    // The language alone: the best voice of any of its regions.
    #expect(chosen("en") == "joe")
    // A region no neural or recorded voice speaks keeps espeak-ng's voice for it.
    #expect(chosen("en-gb-x-gbclan") == "English (Lancaster)")
    #expect(chosen("de") == "German")
    // A named voice is a named voice.
    #expect(
        kinds.select(synthesisVoice: "English (America)", language: "en-US", defaultVoice: nil, defaultLanguage: "de")?
            .voice.name == "English (America)")
    #expect(kinds.voice(forLanguage: "en-US")?.name == "joe")
}

@Test func `LanguageVoice names the voice a language gets, by any of its names; an unknown one is ignored`() {
    let chosen = kindsCatalogue(languageVoices: ["en-us": "english (america)", "en": "Greeter (recorded)", "de": "nobody"])
    func name(_ language: String) -> String? {
        chosen.select(synthesisVoice: nil, language: language, defaultVoice: nil, defaultLanguage: "de")?.voice.name
    }
    #expect(name("en-US") == "English (America)")
    #expect(name("en") == "Greeter")
    #expect(name("de") == "German")
    #expect(chosen.chosenVoice(forLanguage: LanguageTag("EN_us")!)?.name == "English (America)")
    #expect(chosen.chosenVoice(forLanguage: LanguageTag("de")!) == nil)
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
