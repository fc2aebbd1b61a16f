import Configuration
import ModuleProtocol
import Speech
import Testing
import UtterModule
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

@Test func `a CHAR is read with every punctuation name`() throws {
    let job = try #require(factory.job(id: 1, kind: .character, text: ",", settings: SpeechSettings()))
    #expect(job.job.parameters.punctuation == .all)
    #expect(
        factory.job(id: 2, kind: .speak, text: ",", settings: SpeechSettings())?.job.parameters.punctuation
            == EngineParameters.Punctuation.none)
}

@Test func `CHAR and KEY data become SSML, escaped`() {
    #expect(JobFactory.ssml(for: .character, text: "<") == "<speak>&lt;</speak>")
    #expect(JobFactory.ssml(for: .character, text: "space") == "<speak> </speak>")
    #expect(JobFactory.ssml(for: .key, text: "shift_a") == "<speak>shift a</speak>")
    #expect(JobFactory.ssml(for: .key, text: "kp-enter") == "<speak>keypad enter</speak>")
    #expect(JobFactory.ssml(for: .key, text: "control_alt_delete") == "<speak>control alt delete</speak>")
    #expect(JobFactory.ssml(for: .speak, text: "<speak>x</speak>") == "<speak>x</speak>")
}
