import Configuration
import Logging
import ModuleProtocol
import SSML
import Speech
import TestSupport
import Testing
import UtterEngine
import Voices

private let factory = JobFactory(
    configuration: UtterConfiguration(),
    catalogue: VoiceCatalogue(voices: [
        Voice(
            name: "English (America)", identifier: "espeak-ng:gmw/en-US",
            primaryLanguages: [Voice.Language(tag: LanguageTag("en-us")!, priority: 2)],
            kind: .espeak(engineName: "gmw/en-US")),
        Voice(
            name: "German", identifier: "espeak-ng:gmw/de",
            primaryLanguages: [Voice.Language(tag: LanguageTag("de")!, priority: 5)],
            kind: .espeak(engineName: "gmw/de")),
    ]))

@Test func `rate, pitch, range and volume map onto espeak-ng's scales`() throws {
    var settings = SpeechSettings()
    settings.rate = -100
    settings.pitch = 100
    settings.pitchRange = -100
    settings.volume = 0
    let slow = try #require(factory.job(id: 1, kind: .speak, text: "x", settings: settings)).job
    #expect(slow.parameters.wordsPerMinute == 80)
    #expect(slow.parameters.pitch == 100)
    #expect(slow.parameters.pitchRange == 0)
    #expect(slow.gain == 0.5)
    settings.rate = 100
    settings.volume = -100
    let fast = try #require(factory.job(id: 2, kind: .speak, text: "x", settings: settings)).job
    #expect(fast.parameters.wordsPerMinute == 450)
    #expect(fast.gain == 0)
    settings.rate = 0
    settings.volume = 100
    let normal = try #require(factory.job(id: 3, kind: .speak, text: "x", settings: settings)).job
    #expect(normal.parameters.wordsPerMinute == 175)
    #expect(normal.gain == 1)
}

@Test func `voice types choose espeak-ng variants, and a chosen voice keeps its own sound`() throws {
    var settings = SpeechSettings()
    settings.language = "de-de"
    settings.voiceType = .female1
    let female = try #require(factory.job(id: 1, kind: .speak, text: "x", settings: settings))
    #expect(female.voice.name == "German")
    #expect(female.job.engineVoice == "gmw/de")
    #expect(female.job.variant == "f1")
    settings.voiceType = .male1
    #expect(factory.job(id: 2, kind: .speak, text: "x", settings: settings)?.job.variant == "none")
    settings.voiceType = nil
    settings.synthesisVoice = "English (America)"
    let chosen = try #require(factory.job(id: 3, kind: .speak, text: "x", settings: settings))
    #expect(chosen.voice.name == "English (America)" && chosen.reason == .synthesisVoice)
    #expect(chosen.job.variant == nil)
}

@Test func `punctuation and capitals settings reach the engine`() throws {
    var settings = SpeechSettings()
    settings.punctuation = .all
    settings.capitalLetters = .spell
    let parameters = factory.parameters(for: settings)
    #expect(parameters.punctuation == .all)
    #expect(parameters.capitals == .spell)
    settings.punctuation = .some
    #expect(factory.parameters(for: settings).punctuation == .some(UtterConfiguration().somePunctuation))
}

@Test func `a capital pitch rise raises words in the engine and a lone capital in its markup`() throws {
    var raising = factory
    raising.configuration.capitalPitchRise = 20
    #expect(EngineParameters.pitchSteps(risingBy: 20) == 16 && EngineParameters.pitchSteps(risingBy: 0) == 0)
    #expect(EngineParameters.pitchSteps(risingBy: 5) == 4 && EngineParameters.pitchSteps(risingBy: 80) == 50)
    var settings = SpeechSettings()
    #expect(raising.parameters(for: settings).capitals == .pitch(steps: 16))
    #expect(factory.parameters(for: settings).capitals == EngineParameters.Capitals.none)
    let character = try #require(raising.job(id: 1, kind: .character, text: "A", settings: settings))
    #expect(character.job.ssml == "<speak><prosody pitch=\"+16\">A</prosody></speak>")
    #expect(character.job.parameters.capitals == EngineParameters.Capitals.none, "raised once, not twice")
    #expect(raising.job(id: 2, kind: .character, text: "a", settings: settings)?.job.ssml == "<speak>a</speak>")
    #expect(raising.job(id: 3, kind: .speak, text: "Ab", settings: settings)?.job.segmenter.capitalPitchSteps == 16)
    settings.capitalLetters = .spell
    #expect(raising.parameters(for: settings).capitals == .spell, "words are still announced as capitals")
    settings.capitalLetters = .icon
    let icon = try #require(raising.job(id: 4, kind: .character, text: "A", settings: settings))
    #expect(icon.job.ssml == "<speak><audio src=\"capital\"/><prosody pitch=\"+16\">A</prosody></speak>")
}

@Test func `a CHAR is read with every punctuation name`() throws {
    let job = try #require(factory.job(id: 1, kind: .character, text: ",", settings: SpeechSettings()))
    #expect(job.job.parameters.punctuation == .all)
    #expect(
        factory.job(id: 2, kind: .speak, text: ",", settings: SpeechSettings())?.job.parameters.punctuation
            == EngineParameters.Punctuation.none)
}

private let words = WordBook(
    keyFolders: [keyTablesFolder], symbolsFolder: UtterConfiguration().symbolsFolder,
    logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
private let wordyFactory = JobFactory(configuration: factory.configuration, catalogue: factory.catalogue, words: words)

private func ssml(_ kind: MessageKind, _ text: String, _ language: String, capitals: Segmenter.Capitals = .none)
    -> String
{
    wordyFactory.ssml(for: kind, text: text, language: LanguageTag(language)!, capitals: capitals)
}

@Test func `CHAR and KEY data become SSML, escaped, and without tables keys read as SSIP writes them`() {
    let english = LanguageTag("en")!
    #expect(factory.ssml(for: .character, text: "<", language: english, capitals: .none) == "<speak>&lt;</speak>")
    #expect(factory.ssml(for: .character, text: "space", language: english, capitals: .none) == "<speak>space</speak>")
    #expect(
        factory.ssml(for: .key, text: "shift_a", language: english, capitals: .none)
            == "<speak>shift <say-as interpret-as=\"tts:char\">a</say-as></speak>")
    #expect(
        factory.ssml(for: .key, text: "kp-enter", language: english, capitals: .none) == "<speak>keypad enter</speak>")
    #expect(
        factory.ssml(for: .speak, text: "<speak>x</speak>", language: english, capitals: .none) == "<speak>x</speak>")
}

@Test(arguments: [
    ("en", "shift_a", "shift <say-as interpret-as=\"tts:char\">a</say-as>"),
    ("de", "shift_a", "Umschalt <say-as interpret-as=\"tts:char\">a</say-as>"),
    ("ja", "shift_a", "シフト <say-as interpret-as=\"tts:char\">a</say-as>"),
    ("en", "kp-enter", "keypad enter"),
    ("de", "kp-enter", "Ziffernblock Eingabe"),
    ("ja", "kp-enter", "テンキー エンター"),
    ("en-GB", "control_alt_delete", "control alt delete"),
    ("de-AT", "control_alt_delete", "Steuerung Alt Entfernen"),
    ("ja", "control_alt_delete", "コントロール オルト デリート"),
    ("de", "f12", "F12"),
    ("de", "space", "Leertaste"),
    ("ja", "double-quote", "ダブルクォート"),
    ("de", "shift_€", "Umschalt Euro"),
    ("de", "kp-*", "Ziffernblock Stern"),
    ("hi", "shift", "<voice xml:lang=\"en\">shift</voice>"),
    ("en", "no-such-key", "no such key"),
])
func `KEY names are spoken in the message language`(language: String, key: String, words: String) {
    #expect(ssml(.key, key, language) == "<speak>\(words)</speak>")
}

@Test(arguments: [
    ("en", "€", "euro"), ("de", "€", "Euro"), ("ja", "€", "ユーロ"),
    ("en", "😀", "grinning face"), ("de", "😀", "grinsendes Gesicht"), ("ja", "😀", "エガオ"),
    ("de", "space", "Leertaste"), ("ja", " ", "スペース"), ("en", "space", "space"),
    ("de", "a", "a"), ("ja", "é", "é"), ("en", "&", "and"),
])
func `CHAR names symbols, emoji and space in the message language and leaves letters to the engine`(
    language: String, character: String, name: String
) {
    #expect(ssml(.character, character, language) == "<speak>\(name)</speak>")
}

@Test func `a capital CHAR follows the capital icon when cap_let_recogn is icon`() {
    #expect(ssml(.character, "A", "en", capitals: .icon("capital")) == "<speak><audio src=\"capital\"/>A</speak>")
    #expect(ssml(.character, "a", "en", capitals: .icon("capital")) == "<speak>a</speak>")
    #expect(ssml(.character, "A", "en", capitals: .spell) == "<speak>A</speak>")
}

@Test func `words follow the language the chosen voice speaks`() throws {
    var settings = SpeechSettings()
    settings.language = "de-CH"
    let german = try #require(wordyFactory.job(id: 1, kind: .key, text: "shift", settings: settings))
    #expect(german.job.ssml == "<speak>Umschalt</speak>")
    // A voice chosen by name speaks its own language, whatever the language setting says.
    settings.synthesisVoice = "English (America)"
    let english = try #require(wordyFactory.job(id: 2, kind: .key, text: "shift", settings: settings))
    #expect(english.job.ssml == "<speak>shift</speak>")
    #expect(wordyFactory.messageLanguage(voice: english.voice, settings: settings) == LanguageTag("en-US"))
}

@Test func `clip voices are paced on the rate scale, espeak-ng voices take the words a minute themselves`() throws {
    var configuration = UtterConfiguration()
    configuration.maximumRate = 900
    let clips = ClipVoice(
        folder: "/voices/words",
        phrases: PhraseBook([("good morning", "/voices/words/gm.wav"), ("こんにちは", "/voices/words/ja.wav")]),
        fallbackEngineName: "gmw/en-US")
    let paced = JobFactory(
        configuration: configuration,
        catalogue: VoiceCatalogue(voices: [
            Voice(
                name: "Words", identifier: "words",
                primaryLanguages: [Voice.Language(tag: LanguageTag("en-us")!, priority: 2)], kind: .clips(clips)),
            Voice(
                name: "English (America)", identifier: "espeak-ng:gmw/en-US",
                primaryLanguages: [Voice.Language(tag: LanguageTag("en")!, priority: 5)],
                kind: .espeak(engineName: "gmw/en-US")),
        ]))
    var settings = SpeechSettings()
    settings.synthesisVoice = "Words"
    settings.rate = 100
    let top = try #require(
        paced.job(id: 1, kind: .speak, text: "<speak>Good morning, こんにちは</speak>", settings: settings)
    ).job
    #expect(top.parameters.wordsPerMinute == 900)
    #expect(top.speed == 900.0 / 175 && top.maximumSpeed == 900.0 / 175)
    // Each clip's segment says how many words its phrase has, for its pace.
    let clipSegments = top.segmenter.segments(of: top.ssml).compactMap { segment in
        segment.sound.map { "\($0) \(segment.soundWords.map(String.init) ?? "-")" }
    }
    #expect(clipSegments == ["/voices/words/gm.wav 2", "/voices/words/ja.wav 0"])
    settings.rate = 0
    #expect(try #require(paced.job(id: 2, kind: .speak, text: "good morning", settings: settings)).job.speed == 1)
    settings.rate = -100
    #expect(
        try #require(paced.job(id: 3, kind: .speak, text: "good morning", settings: settings)).job.speed == 80.0 / 175)
    settings.rate = 100
    settings.synthesisVoice = "English (America)"
    let engine = try #require(paced.job(id: 4, kind: .speak, text: "good morning", settings: settings)).job
    #expect(engine.parameters.wordsPerMinute == 900 && engine.speed == 1)
}
