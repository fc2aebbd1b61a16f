import AudioSinks
import Foundation
import OnnxRuntime
import Glibc
import Piper
import Playback
import SSML
import TestSupport
import Testing
import Voices

@testable import Speech

/// Kokoro voices through the synth thread, on the tiny Kokoro-shaped pack: Japanese read by
/// MeCab into kana words, the kana made Kokoro's phonemes, words and marks where the
/// `/encoder/Clip` durations put them.
@Suite(.serialized)
struct KokoroSynthesisTests {
    static let vocabulary = try! KokoroVocabulary.parse(KokoroVocabulary.kokoroV1).get()

    func voice(_ tiny: TinyKokoro, _ name: String = "jf_alpha") throws -> NeuralVoice {
        NeuralVoice(
            model: tiny.model, config: tiny.vocabulary, family: .kokoro(styles: tiny.styles(name)), speaker: nil,
            fallbackEngineName: "ja", runtimeLibrary: try installedOnnxRuntime().libraryPath, threads: 1)
    }

    /// A Japanese message, as the job factory makes it: its text read by the Japanese reader.
    func japanese(_ job: inout SynthesisJob) {
        job.engineVoice = "ja"
        job.segmenter.languageSwitching = LanguageSwitching(
            messageLanguage: "ja", voiceScripts: Set(Script.scripts(ofLanguage: "ja")), availableLanguages: ["ja", "en"])
    }

    /// A Japanese message spoken to its end on `tiny`'s `voice`: its events, its first and end
    /// samples, the rig (for its samples and log); nil (recorded) when it did not start and end.
    func speakJapanese(_ ssml: String, on tiny: TinyKokoro, speed: Double = 1) async throws -> (
        events: [SynthesisEvent], start: UInt64, end: UInt64, rig: NeuralRig
    )? {
        let rig = try await NeuralRig.start()
        var job = rig.job(ssml, voice: try voice(tiny), speed: speed)
        japanese(&job)
        let events = try rig.speak(job)
        rig.finish()
        guard case .audioStart(_, let start) = events.first, case .end(_, let end) = events.last else {
            Issue.record("unexpected events \(events) \(rig.logs.all)")
            return nil
        }
        return (events, start, end, rig)
    }

    /// Where each of `phonemes`' words starts (their first phoneme's offset), in output samples
    /// from the sentence's start, the start token's frames left out as the message's first
    /// sentence has them; and the sentence's length.
    static func expected(_ phonemes: String, wordStarts: [Int], speed: Double = 1) -> (words: [Int], length: Int) {
        let ids = [0] + phonemes.unicodeScalars.compactMap { vocabulary[$0] } + [0]
        let frames = ids.map { TinyKokoro.frames($0, speed: speed) }
        let total = frames.reduce(0, +) - frames[0]
        // The output's rate: 22050 Hz, the model's 24 kHz resampled by libsoxr.
        let scale = 22050.0 / Double(TinyKokoro.sampleRate) * Double(TinyKokoro.hop)
        let starts = wordStarts.map { phoneme in Int((Double(frames[1..<(phoneme + 1)].reduce(0, +)) * scale).rounded()) }
        return (starts, Int((Double(total) * scale).rounded()))
    }

    @Test func `Japanese is read as kana words, each word and mark placed where the model's durations put it`() async throws {
        let tiny = try TinyKokoro(vocabulary: KokoroVocabulary.kokoroV1)
        let ssml = "<speak xml:lang=\"ja\">それでは<mark name=\"here\"/>発表します。</speak>"
        guard let (events, start, end, rig) = try await speakJapanese(ssml, on: tiny) else { return }
        // MeCab's words, named by their text as written: それでは 発表 し ます.
        let words = events.compactMap { event -> (Range<Int>, Int)? in
            if case .word(_, let text, let position) = event { (text, Int(position - start)) } else { nil }
        }
        #expect(words.map(\.0) == [0..<4, 4..<6, 6..<7, 7..<9], "\(events) \(rig.logs.all)")
        // ソレデワ ハッピョー シ マス。 as misaki's romanizer writes it, one inference.
        let (starts, length) = Self.expected("soɾedeβa haʔpʲoː ɕi masɨ.", wordStarts: [0, 9, 17, 20])
        #expect(rig.logs.all.contains { $0.contains("neural sentence: \"soɾedeβa haʔpʲoː ɕi masɨ.\"") }, "\(rig.logs.all)")
        func near(_ placed: [Int], _ wanted: [Int]) -> Bool {
            placed.count == wanted.count && zip(placed, wanted).allSatisfy { abs($0 - $1) <= 2 }
        }
        #expect(near(words.map(\.1), starts), "\(words.map(\.1)) against \(starts)")
        #expect(abs(Int(end - start) - length) <= 2, "\(end - start) samples against \(length)")
        let marks = events.compactMap { event -> (String, Int)? in
            if case .mark(_, let name, let position) = event { (name, Int(position - start)) } else { nil }
        }
        #expect(marks.map(\.0) == ["here"] && marks.first?.1 == words[1].1, "the mark with 発表: \(marks)")
        let markIndex = events.firstIndex { if case .mark = $0 { true } else { false } }
        let wordIndex = events.firstIndex { if case .word(_, 4..<6, _) = $0 { true } else { false } }
        #expect(markIndex != nil && wordIndex != nil && markIndex! < wordIndex!, "the mark before its word")
        #expect(rootMeanSquare(rig.store.contents[Int(start)...]) > 10000, "the sine, scaled to full range")
    }

    @Test func `a Japanese first clause is heard alone up to its 、 and never cut between morphemes`() async throws {
        let tiny = try TinyKokoro(vocabulary: KokoroVocabulary.kokoroV1)
        let ssml = "<speak xml:lang=\"ja\">まず、シーエフピーに応募したプロポーザルがこちらです。</speak>"
        guard let (_, _, _, rig) = try await speakJapanese(ssml, on: tiny) else { return }
        let sentences = rig.logs.all.compactMap { line -> String? in
            guard let range = line.firstRange(of: "neural sentence: ") else { return nil }
            return String(line[range.upperBound...])
        }
        // まず、 alone (its first sound sooner), then the rest whole: nine morphemes, one intonation.
        #expect(sentences.count == 2 && sentences.first == "\"mazɨ,\"", "\(sentences) \(rig.logs.all)")
        #expect(sentences.last?.hasSuffix("ɡa koʨiɾa desɨ.\"") == true, "\(sentences)")
    }

    @Test func `every sentence leaves out the start token's pause, and a long silence at a sentence's end is cut to 350 ms`()
        async throws
    {
        // Two sentences of over 40 frames each.
        let ssml = "<speak xml:lang=\"ja\">ハイ、ソーデス、ソーデス。ハイ、ソーデス、ソーデス。</speak>"
        for silentEnd in [false, true] {
            let tiny = try TinyKokoro(vocabulary: KokoroVocabulary.kokoroV1, silentEnd ? ["--silent-end"] : [])
            guard let (_, start, end, rig) = try await speakJapanese(ssml, on: tiny) else { return }
            // Each inference without its start token (the second sentence's too); with its last
            // 0.5 s silent, each keeps 350 ms of it after its last sound.
            let inferred = rig.logs.all.compactMap { line -> String? in
                guard let range = line.firstRange(of: "neural sentence: \"") else { return nil }
                return String(line[range.upperBound...].dropLast())
            }
            #expect(inferred.count == 3, "the first clause alone, then the rest, then the second sentence: \(inferred)")
            let wanted = inferred.map { phonemes in
                let length = Self.expected(phonemes, wordStarts: [0]).length
                return silentEnd ? length - Int(0.5 * 22050) + Int(0.35 * 22050) : length
            }.reduce(0, +)
            #expect(
                // Each inference: libsoxr's rounding, and its filter ringing a few samples past the last sound.
                abs(Int(end - start) - wanted) <= 4 * inferred.count,
                "silent end \(silentEnd): \(end - start) samples against \(wanted)")
        }
    }

    @Test func `the rate is the model's speed input, its durations scaled with it`() async throws {
        let tiny = try TinyKokoro(vocabulary: KokoroVocabulary.kokoroV1)
        let ssml = "<speak xml:lang=\"ja\">ハイ。</speak>"
        var lengths: [Int] = []
        for speed in [1.0, 1.8] {
            guard let (_, start, end, _) = try await speakJapanese(ssml, on: tiny, speed: speed) else { return }
            lengths.append(Int(end - start))
            let wanted = Self.expected("hai.", wordStarts: [0], speed: speed).length
            #expect(abs(Int(end - start) - wanted) <= 2, "speed \(speed): \(end - start) samples against \(wanted)")
        }
        #expect(lengths[1] < lengths[0], "\(lengths)")
    }

    @Test func `a text longer than the model's 510 tokens is spoken in pieces, every word once and in order`() async throws {
        let tiny = try TinyKokoro(vocabulary: KokoroVocabulary.kokoroV1)
        // 120 words of 6 phonemes (テスト, tesɨto) without punctuation: 839 phonemes, more than
        // one inference takes.
        let text = Array(repeating: "テスト", count: 120).joined(separator: " ")
        guard let (events, _, _, rig) = try await speakJapanese("<speak xml:lang=\"ja\">\(text)。</speak>", on: tiny)
        else { return }
        let words = events.compactMap { event -> Range<Int>? in if case .word(_, let text, _) = event { text } else { nil } }
        let sentences = rig.logs.all.filter { $0.contains("neural sentence: ") }
        #expect(sentences.count >= 2, "\(sentences.count) inferences")
        #expect(words == (0..<120).map { $0 * 4..<($0 * 4 + 3) }, "\(words.count) words: \(words.prefix(8))")
        let positions = events.compactMap { event -> UInt64? in if case .word(_, _, let at) = event { at } else { nil } }
        #expect(positions == positions.sorted(), "words in the order they are heard")
    }

    @Test func `a model whose inputs are not Kokoro's is named once and the message is spoken by the fallback voice`() async throws {
        let tiny = try TinyKokoro(vocabulary: KokoroVocabulary.kokoroV1, ["--rename-input", "input_ids"])
        let rig = try await NeuralRig.start()
        var job = rig.job("<speak xml:lang=\"ja\">ハイ。</speak>", voice: try voice(tiny))
        japanese(&job)
        let events = try rig.speak(job)
        rig.finish()
        guard case .end = events.last else {
            Issue.record("unexpected events \(events)")
            return
        }
        let log = rig.logs.all.joined(separator: "\n")
        #expect(log.contains("is not a Kokoro model: its inputs are input_ids, style, speed"), "\(log)")
        #expect(log.contains("neural voice unavailable, the message is spoken by ja"), "\(log)")
    }

    @Test func `an English Kokoro voice reads libespeak-ng's phonemes`() async throws {
        let tiny = try TinyKokoro(vocabulary: KokoroVocabulary.kokoroV1)
        let rig = try await NeuralRig.start()
        let events = try rig.speak(rig.job("<speak>Hello world.</speak>", voice: try voice(tiny, "af_heart")))
        rig.finish()
        let words = events.compactMap { event -> Range<Int>? in if case .word(_, let text, _) = event { text } else { nil } }
        #expect(words == [0..<5, 6..<11], "\(events)")
        #expect(
            rig.logs.all.contains { $0.contains("neural sentence: \"həlˈoʊ wˈɜːld.\"") }, "\(rig.logs.all)")
    }
}
