import Piper
import Testing
import UtterEngine
import Voices

@Suite struct NeuralVoiceLibraryTests {
    static func config(_ speakers: String, count: Int) throws -> PiperVoiceConfig {
        try PiperVoiceConfig.parse(
            """
            {"audio": {"sample_rate": 16000}, "espeak": {"voice": "de"},
             "inference": {"noise_scale": 0.667, "length_scale": 1, "noise_w": 0.8},
             "phoneme_id_map": {"_": [0], "^": [1], "$": [2]}, "num_speakers": \(count),
             "speaker_id_map": \(speakers), "language": {"code": "de_DE"}}
            """
        ).get()
    }

    static let espeak = VoiceCatalogue(voices: [
        Voice(
            name: "German", identifier: "espeak-ng:gmw/de",
            primaryLanguages: [Voice.Language(tag: LanguageTag("de")!, priority: 5)],
            kind: .espeak(engineName: "gmw/de"))
    ])

    @Test func `a multi-speaker model is one voice per speaker, by name and id`() throws {
        let voices = NeuralVoiceLibrary.voices(
            name: "thorsten", model: "/v/m.onnx", configPath: "/v/m.onnx.json",
            config: try Self.config("{\"emotional\": 1, \"calm\": 0}", count: 2), espeak: Self.espeak,
            runtime: "/lib/libonnxruntime.so.1", threads: 2)
        #expect(voices.map(\.name) == ["thorsten calm", "thorsten emotional"])
        #expect(voices.map(\.identifier) == ["piper:thorsten/calm", "piper:thorsten/emotional"])
        #expect(voices.map { $0.primaryLanguages.first?.tag.description } == ["de-DE", "de-DE"])
        guard case .neural(let first) = voices[0].kind, case .neural(let second) = voices[1].kind else {
            Issue.record("not neural voices")
            return
        }
        #expect(first.speaker == 0 && second.speaker == 1)
        #expect(first.fallbackEngineName == "gmw/de", "the espeak-ng voice of its language speaks for it")
        #expect(first.threads == 2 && first.runtimeLibrary == "/lib/libonnxruntime.so.1")
    }

    @Test func `speakers without names are numbered; one speaker is one voice with the folder's name`() throws {
        let numbered = NeuralVoiceLibrary.voices(
            name: "many", model: "/m.onnx", configPath: "/m.onnx.json", config: try Self.config("{}", count: 3),
            espeak: Self.espeak, runtime: "/r", threads: 1)
        #expect(numbered.map(\.name) == ["many 0", "many 1", "many 2"])
        let single = NeuralVoiceLibrary.voices(
            name: "solo", model: "/m.onnx", configPath: "/m.onnx.json", config: try Self.config("{}", count: 1),
            espeak: Self.espeak, runtime: "/r", threads: 1)
        #expect(single.map(\.name) == ["solo"] && single.map(\.identifier) == ["piper:solo"])
        // Chosen by name, and the best voice of its language: a neural voice before espeak-ng's.
        let catalogue = VoiceCatalogue(voices: Self.espeak.voices + single)
        #expect(catalogue.voice(named: "SOLO")?.identifier == "piper:solo")
        #expect(catalogue.voice(forLanguage: "de")?.name == "solo")
        #expect(catalogue.listings(language: "de").first?.name == "solo (neural)")
    }
}
