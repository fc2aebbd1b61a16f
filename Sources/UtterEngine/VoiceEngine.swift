import Speech
package import Voices

/// libespeak-ng, loaded and not playing yet: a front end reads its voices, then starts a
/// ``SpeechPipeline`` on it. One at a time: libespeak-ng keeps its state in globals.
package struct VoiceEngine: ~Copyable {
    let engine: EspeakEngine

    package init() throws {
        engine = try EspeakEngine()
    }

    /// The espeak-ng voices, as the voice catalogue lists them.
    package func voices() -> [Voice] {
        engine.voices()
    }
}
