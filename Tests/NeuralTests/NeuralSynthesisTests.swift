import AudioSinks
import Foundation
import Glibc
import Logging
import OnnxRuntime
import Piper
import Playback
import SSML
import System
import TestSupport
import Testing
import Voices

@testable import Speech


/// The synth thread in this process rendering into memory: every event's sample is exact.
final class NeuralRig {
    let store = MemoryStore()
    let wake = try! EventFD()
    let logs = LogLines()
    var synthesizer: Synthesizer!
    private var nextJob: UInt64 = 0
    private var finished = false

    /// A rig once the engine is free: waits for it without holding a thread of the test pool,
    /// which a test that holds the engine may need to finish.
    static func start(neural: NeuralModelStore.Settings = .init()) async throws -> NeuralRig {
        await EngineTurns.take()
        return try NeuralRig(neural: neural)
    }

    /// Takes over the engine turn the caller holds.
    private init(neural: NeuralModelStore.Settings) throws {
        do {
            let engine = try EspeakEngine()
            let sink = RenderedSink(store: store, sampleRate: engine.sampleRate, wake: wake)
            let logs = self.logs
            var logger = Logger(label: "test") { _ in CapturingLogHandler(sink: logs) }
            // The sentences a neural voice infers are logged at debug level: the Kokoro tests read them.
            logger.logLevel = .debug
            synthesizer = try Synthesizer(
                engine: engine, sink: sink, controlWake: wake, logger: logger, neural: neural)
            try synthesizer.start()
        } catch {
            EngineTurns.release()
            throw error
        }
    }

    func job(_ ssml: String, voice: NeuralVoice?, speed: Double = 1) -> SynthesisJob {
        nextJob += 1
        var job = SynthesisJob(
            id: nextJob, ssml: ssml, engineVoice: "gmw/en-US", variant: nil, parameters: EngineParameters(), gain: 1)
        job.neural = voice
        job.speed = speed
        job.reportsWords = true
        return job
    }

    /// Speaks to the end; the events but progress.
    func speak(_ job: SynthesisJob) throws -> [SynthesisEvent] {
        synthesizer.submit(job)
        var events: [SynthesisEvent] = []
        let deadline = monotonicSeconds() + 60
        while monotonicSeconds() < deadline {
            events += synthesizer.takeEvents().filter { if case .progress = $0 { false } else { true } }
            if case .end = events.last { return events }
            usleep(2000)
        }
        throw SpawnError(what: "speaking \(job.ssml)", code: ETIMEDOUT)
    }

    func finish() {
        guard !finished else { return }
        finished = true
        synthesizer.shutdown()
        synthesizer = nil
        EngineTurns.release()
    }

    deinit { finish() }
}

/// What the tiny model must give for `ssml`: each sentence's length, and where each word
/// starts, from its phoneme ids (phonemised by libespeak-ng before the synth thread takes it).
struct Expected {
    var sentenceLengths: [Int] = []
    /// Word (message text range) → sample offset from the message's first sample.
    var words: [(text: Range<Int>, sample: Int)] = []
    var marks: [(name: String, sample: Int)] = []

    /// Waits for the engine without holding a thread of the test pool.
    static func of(_ ssml: String, lengthScale: Float = 1, proportional: Bool = false) async throws -> Expected {
        await EngineTurns.take()
        defer { EngineTurns.release() }
        return try Expected(ssml, lengthScale: lengthScale, proportional: proportional)
    }

    private init(_ ssml: String, lengthScale: Float, proportional: Bool) throws {
        let engine = try EspeakEngine()
        var offset = 0
        for segment in Segmenter().segments(of: ssml) where segment.markup != nil {
            let text = NeuralText(segment: segment)
            let clauses = try engine.phonemes(of: text.string, voice: "en-us")
            let first = offset == 0
            for (index, sentence) in PiperSentence.sentences(text: text, clauses: clauses, firstClauseAlone: first)
                .enumerated()
            {
                let ids = PhonemeIDs(
                    phonemes: sentence.phonemes,
                    map: [:].merging(
                        sentence.phonemes.map { ($0, [TinyVoice.id(of: $0)]) } + [("_", [0]), ("^", [1]), ("$", [2])],
                        uniquingKeysWith: { a, _ in a }))
                let frames = ids.ids.map { TinyVoice.frames($0, lengthScale: lengthScale) }
                let whole = frames.reduce(0, +) * 256
                func start(ofID id: Int) -> Int {
                    proportional ? id * whole / ids.ids.count : frames[0..<id].reduce(0, +) * 256
                }
                // The start symbol left out of the message's first sentence and a cut clause's
                // rest, the end symbol out of a cut clause's first words.
                // Only with durations: without them nothing is left out.
                let trims = !proportional
                let lead =
                    trims && (sentence.startsMidClause || (first && index == 0)) ? start(ofID: ids.startSymbolCount) : 0
                let tail = trims && sentence.endsMidClause ? start(ofID: ids.ids.count - ids.endSymbolCount) : whole
                let length = tail - lead
                // A phoneme is heard from the pad before it where that is audible: the sine always is.
                func sample(_ phoneme: Int) -> Int {
                    let id = phoneme < ids.starts.count ? ids.starts[phoneme] - ids.padCount : ids.ids.count
                    return min(length, start(ofID: max(0, id)) - lead)
                }
                for word in sentence.words {
                    words.append((try #require(text.textRange(of: word.text)), offset + sample(word.phoneme)))
                }
                for mark in sentence.marks {
                    marks.append((segment.inlineMarks[mark.index], offset + sample(mark.phoneme)))
                }
                sentenceLengths.append(length)
                offset += length
            }
        }
    }
}

@Suite(.serialized)
struct NeuralSynthesisTests {
    static let ssml = "<speak>Hello <mark name=\"here\"/>world, said the fox. Good night!</speak>"

    func voice(_ tiny: TinyVoice) throws -> NeuralVoice {
        NeuralVoice(
            model: tiny.model, config: tiny.config, speaker: nil, fallbackEngineName: "gmw/en-US",
            runtimeLibrary: try installedOnnxRuntime().libraryPath, threads: 1)
    }

    func check(_ events: [SynthesisEvent], against expected: Expected, samples: [Int16]) {
        guard case .audioStart(_, let start) = events.first, case .end(_, let end) = events.last else {
            Issue.record("unexpected events \(events)")
            return
        }
        #expect(Int(end - start) == expected.sentenceLengths.reduce(0, +))
        #expect(samples.count == Int(end))
        let words = events.compactMap { event -> (Range<Int>, Int)? in
            if case .word(_, let text, let position) = event { (text, Int(position - start)) } else { nil }
        }
        #expect(words.map(\.0) == expected.words.map(\.text))
        // The first audible sample: the pad's first, or the next where the sine crosses zero there.
        func isHeard(_ placed: [Int], _ expected: [Int]) -> Bool {
            placed.count == expected.count && zip(placed, expected).allSatisfy { (0...1).contains($0 - $1) }
        }
        #expect(
            isHeard(words.map(\.1), expected.words.map(\.sample)), "\(words.map(\.1)), \(expected.words.map(\.sample))")
        let marks = events.compactMap { event -> (String, Int)? in
            if case .mark(_, let name, let position) = event { (name, Int(position - start)) } else { nil }
        }
        #expect(marks.map(\.0) == expected.marks.map(\.name))
        #expect(
            isHeard(marks.map(\.1), expected.marks.map(\.sample)), "\(marks.map(\.1)), \(expected.marks.map(\.sample))")
        #expect(rootMeanSquare(samples[Int(start)...]) > 10000, "the sine, scaled to full range")
    }

    @Test func `words and marks sit on the first sample of their phonemes' frames`() async throws {
        let tiny = try TinyVoice()
        let expected = try await Expected.of(Self.ssml)
        #expect(expected.sentenceLengths.count == 3, "the first clause alone, then one inference per sentence")
        #expect(expected.words.map(\.text) == [0..<5, 6..<11, 13..<17, 18..<21, 22..<25, 27..<31, 32..<37])
        #expect(expected.marks.map(\.name) == ["here"] && expected.marks[0].sample == expected.words[1].sample)
        let rig = try await NeuralRig.start()
        let events = try rig.speak(rig.job(Self.ssml, voice: try voice(tiny)))
        rig.finish()
        check(events, against: expected, samples: rig.store.contents)
    }

    @Test func `a long first clause is cut after its first words, the pieces joined without the symbols' silence`()
        async throws
    {
        // No θ: the tiny voice's map lacks it.
        let ssml = "<speak>One two four five <mark name=\"m\"/>six seven eight. Good night!</speak>"
        let tiny = try TinyVoice()
        let expected = try await Expected.of(ssml)
        #expect(expected.sentenceLengths.count == 3, "three words, the rest of the clause, the next sentence")
        #expect(expected.words.map(\.text).count == 9 && expected.marks.map(\.name) == ["m"])
        let rig = try await NeuralRig.start()
        let events = try rig.speak(rig.job(ssml, voice: try voice(tiny)))
        rig.finish()
        check(events, against: expected, samples: rig.store.contents)
    }

    @Test func `a mark that starts a segment is heard with its first word, not with the start symbol`() async throws {
        let ssml = "<speak>One. <mark name=\"a\"/>Two three.</speak>"
        let tiny = try TinyVoice()
        let rig = try await NeuralRig.start()
        let events = try rig.speak(rig.job(ssml, voice: try voice(tiny)))
        rig.finish()
        let marks = events.compactMap { event -> UInt64? in
            if case .mark(_, "a", let position) = event { position } else { nil }
        }
        let words = events.compactMap { event -> (Range<Int>, UInt64)? in
            if case .word(_, let text, let position) = event { (text, position) } else { nil }
        }
        #expect(words.map(\.0) == [0..<3, 5..<8, 9..<14])
        guard marks.count == 1, words.count == 3 else {
            Issue.record("unexpected events \(events)")
            return
        }
        // Before, the mark was at its segment's first sample: the start symbol's frame before "Two".
        #expect(marks[0] == words[1].1)
        let markIndex = events.firstIndex { if case .mark = $0 { true } else { false } }
        let wordIndex = events.firstIndex { if case .word(_, 5..<8, _) = $0 { true } else { false } }
        #expect(markIndex != nil && wordIndex != nil && markIndex! < wordIndex!, "the mark before its word")
    }

    @Test func `a model without durations spreads words evenly over the ids`() async throws {
        let tiny = try TinyVoice(["--no-ceil"])
        let expected = try await Expected.of(Self.ssml, proportional: true)
        let rig = try await NeuralRig.start()
        let events = try rig.speak(rig.job(Self.ssml, voice: try voice(tiny)))
        rig.finish()
        check(events, against: expected, samples: rig.store.contents)
    }

    @Test func `the rate scales the phonemes' length`() async throws {
        let tiny = try TinyVoice()
        let expected = try await Expected.of(Self.ssml, lengthScale: 1 / 1.5)
        let rig = try await NeuralRig.start()
        let events = try rig.speak(rig.job(Self.ssml, voice: try voice(tiny), speed: 1.5))
        rig.finish()
        check(events, against: expected, samples: rig.store.contents)
    }

    @Test(arguments: [4.0, 900.0 / 175])
    func `beyond 1.5 times its pace libsonic compresses the voice, words and marks where they are heard`(
        speed: Double
    ) async throws {
        let tiny = try TinyVoice()
        // The length scale gives 1.5 times the pace; libsonic the rest.
        let expected = try await Expected.of(Self.ssml, lengthScale: 1 / 1.5)
        let compression = speed / 1.5
        let rig = try await NeuralRig.start()
        let events = try rig.speak(rig.job(Self.ssml, voice: try voice(tiny), speed: speed))
        rig.finish()
        guard case .audioStart(_, let start) = events.first, case .end(_, let end) = events.last else {
            Issue.record("unexpected events \(events)")
            return
        }
        let total = Double(expected.sentenceLengths.reduce(0, +))
        #expect(abs(Double(end - start) * compression / total - 1) < 0.02, "\(end - start) samples of \(total)")
        // Each sentence is compressed on its own: a word is off by at most a sentence's rounding.
        let tolerance = 256.0
        let words = events.compactMap { event -> Int? in
            if case .word(_, _, let position) = event { Int(position - start) } else { nil }
        }
        #expect(words.count == expected.words.count)
        for (heard, original) in zip(words, expected.words.map(\.sample)) {
            #expect(
                abs(Double(heard) - Double(original) / compression) <= tolerance,
                "word at \(heard), \(original) uncompressed")
        }
        let marks = events.compactMap { event -> Int? in
            if case .mark(_, "here", let position) = event { Int(position - start) } else { nil }
        }
        #expect(marks.count == 1 && abs(Double(marks[0]) - Double(expected.marks[0].sample) / compression) <= tolerance)
        #expect(marks.first == words.dropFirst().first, "the mark with the word it precedes")
        // The model's 220 Hz sine keeps its pitch.
        let samples = Array(rig.store.contents[Int(start)..<Int(end)])
        let f0 = fundamental(samples[0..<min(samples.count, 8000)], sampleRate: 22050)
        #expect(abs(f0 / (0.0627 * 22050 / (2 * .pi)) - 1) < 0.03, "F0 \(f0) Hz")
    }

    @Test(arguments: [100, 20])
    func `the pitch setting shifts the voice's F0 through libsonic, its length and words kept`(setting: Int)
        async throws
    {
        let tiny = try TinyVoice()
        let expected = try await Expected.of(Self.ssml)
        let rig = try await NeuralRig.start()
        var job = rig.job(Self.ssml, voice: try voice(tiny))
        job.parameters.pitch = setting
        let events = try rig.speak(job)
        rig.finish()
        guard case .audioStart(_, let start) = events.first, case .end(_, let end) = events.last else {
            Issue.record("unexpected events \(events)")
            return
        }
        let total = Double(expected.sentenceLengths.reduce(0, +))
        #expect(abs(Double(end - start) / total - 1) < 0.01, "\(end - start) samples of \(total)")
        let words = events.compactMap { event -> Int? in
            if case .word(_, _, let position) = event { Int(position - start) } else { nil }
        }
        #expect(words.count == expected.words.count)
        // libsonic gives each sentence a few samples more or less: later words move by those.
        for (placed, original) in zip(words, expected.words.map(\.sample)) {
            #expect(abs(placed - original) <= 256, "word at \(placed), \(original) at the normal pitch")
        }
        #expect(words.first == expected.words.first?.sample, "the first sentence's words where they were")
        // 59 steps an octave, as espeak-ng voices are heard.
        let factor = pow(2, Double(setting - 50) / 59)
        let samples = Array(rig.store.contents[Int(start)..<Int(end)])
        let f0 = fundamental(samples[2000..<min(samples.count, 10000)], sampleRate: 22050)
        #expect(abs(f0 / (0.0627 * 22050 / (2 * .pi) * factor) - 1) < 0.03, "F0 \(f0) Hz, factor \(factor)")
    }

    @Test func `SSML prosody pitch shifts the words it holds, in a sentence and across sentences`() async throws {
        let ssml =
            "<speak>Hello <prosody pitch=\"x-low\">world</prosody>, said the fox. "
            + "<prosody pitch=\"+50%\">Good night!</prosody></speak>"
        let tiny = try TinyVoice()
        let rig = try await NeuralRig.start()
        let events = try rig.speak(rig.job(ssml, voice: try voice(tiny)))
        rig.finish()
        let samples = rig.store.contents
        let words = events.compactMap { event -> Int? in
            if case .word(_, _, let position) = event { Int(position) } else { nil }
        }
        guard case .end(_, let end) = events.last, words.count == 7 else {
            Issue.record("unexpected events \(events)")
            return
        }
        let sine = 0.0627 * 22050 / (2 * .pi)
        // The middle of each stretch: libsonic changes the pitch within two periods of a word's start.
        func f0(_ from: Int, _ to: Int) -> Double {
            let margin = (to - from) / 6
            return fundamental(samples[(from + margin)..<(to - margin)], sampleRate: 22050)
        }
        let hello = f0(words[0], words[1])
        let world = f0(words[1], words[2])
        let said = f0(words[2], words[3])
        let night = f0(words[6], Int(end))
        #expect(abs(hello / sine - 1) < 0.03, "Hello at \(hello) Hz")
        #expect(abs(world / (sine * 0.7071) - 1) < 0.03, "x-low: 6 semitones lower, \(world) Hz")
        #expect(abs(said / sine - 1) < 0.03, "after </prosody>: \(said) Hz")
        #expect(abs(night / (sine * 1.5) - 1) < 0.03, "+50%: \(night) Hz")
    }

    @Test func `SSML prosody pitch in hertz is made a ratio with the voice's measured F0`() async throws {
        let ssml =
            "<speak>Hello <prosody pitch=\"+110Hz\">world</prosody>, said the fox. "
            + "<prosody pitch=\"165Hz\">Good night to all of you, my friends of the wood!</prosody></speak>"
        let tiny = try TinyVoice()
        let rig = try await NeuralRig.start()
        let events = try rig.speak(rig.job(ssml, voice: try voice(tiny)))
        rig.finish()
        let samples = rig.store.contents
        let words = events.compactMap { event -> Int? in
            if case .word(_, _, let position) = event { Int(position) } else { nil }
        }
        guard case .end(_, let end) = events.last, words.count == 16 else {
            Issue.record("unexpected events \(events)")
            return
        }
        // The model's sine: 220 Hz.
        let sine = 0.0627 * 22050 / (2 * .pi)
        func f0(_ from: Int, _ to: Int) -> Double {
            let margin = (to - from) / 6
            return fundamental(samples[(from + margin)..<(to - margin)], sampleRate: 22050)
        }
        #expect(abs(f0(words[0], words[1]) / sine - 1) < 0.03)
        #expect(abs(f0(words[1], words[2]) / (sine + 110) - 1) < 0.03, "+110Hz: \(f0(words[1], words[2])) Hz")
        #expect(abs(f0(words[2], words[3]) / sine - 1) < 0.03)
        #expect(abs(f0(words[5], Int(end)) / 165 - 1) < 0.03, "165Hz: \(f0(words[5], Int(end))) Hz")
        // "Hello world," is too short to stand for the voice: it is measured for itself only, the
        // second of voice of the last sentence for the voice.
        #expect(rig.logs.all.contains { $0.contains("median F0 220 Hz") }, "\(rig.logs.all)")
    }

    @Test(arguments: [
        ("bad JSON", "json", "tiny.onnx.json: phoneme_id_map is missing"),
        ("not JSON", "notjson", "tiny.onnx.json: not JSON: "),
        ("corrupt model", "corrupt", "tiny.onnx: "),
        ("truncated model", "truncated", "tiny.onnx: not an ONNX model ("),
        ("inputs not Piper's", "inputs", "tiny.onnx is not a Piper model: its inputs are text, input_lengths, scales"),
    ])
    func `a voice that cannot load is named, the fallback voice speaks, the next message is neural`(
        _ what: String, _ kind: String, _ logged: String
    ) async throws {
        let bad = try TinyVoice(
            kind == "inputs" ? ["--rename-input", "text"] : [],
            json: kind == "json"
                ? TinyVoice.json.replacingFirst("\"phoneme_id_map\"", with: "\"phonemes\"")
                : kind == "notjson" ? "{\"audio\": " : TinyVoice.json)
        let bytes = try #require(readFile(bad.model))
        if kind == "corrupt" {
            var generator = SeededGenerator(seed: 7)
            writeBytes(bad.model, (0..<bytes.count).map { _ in UInt8.random(in: 0...255, using: &generator) })
        } else if kind == "truncated" {
            writeBytes(bad.model, Array(bytes.prefix(bytes.count - 40)))
        }
        let good = try TinyVoice()
        let expected = try await Expected.of(Self.ssml)
        let rig = try await NeuralRig.start()
        let fallback = try rig.speak(rig.job(Self.ssml, voice: try voice(bad)))
        let afterFallback = rig.store.contents.count
        let neural = try rig.speak(rig.job(Self.ssml, voice: try voice(good)))
        rig.finish()
        let problem = rig.logs.all.first { $0.contains("neural voice unavailable") } ?? "none"
        #expect(
            problem.contains("the message is spoken by gmw/en-US") && problem.contains(logged), "\(what): \(problem)")
        guard case .end(_, let fallbackEnd) = fallback.last else {
            Issue.record("\(what): the fallback did not end: \(fallback)")
            return
        }
        // espeak-ng spoke it: speech, and marks still reported.
        #expect(fallback.contains { if case .mark(_, "here", _) = $0 { true } else { false } })
        #expect(rootMeanSquare(rig.store.contents[0..<Int(fallbackEnd)]) > 500)
        #expect(Int(fallbackEnd) == afterFallback)
        let samples = rig.store.contents
        check(
            neural.map { $0.shifted(by: -Int64(fallbackEnd)) }, against: expected,
            samples: Array(samples[Int(fallbackEnd)...]))
    }

    @Test func `text in a language the model lacks is spoken by that language's espeak-ng voice`() async throws {
        let tiny = try TinyVoice()
        let text = "Meeting with たなかさん at three."
        let rig = try await NeuralRig.start()
        var job = rig.job("<speak>\(text)</speak>", voice: try voice(tiny))
        job.segmenter = Segmenter(
            languageSwitching: LanguageSwitching(
                messageLanguage: "en-US", voiceScripts: Script.scripts(ofLanguage: "en-US"), isAutomatic: true,
                availableLanguages: ["en", "en-us", "ja"]))
        job.languageVoices = ["en": "gmw/en-US", "en-us": "gmw/en-US", "ja": "jpx/ja"]
        let events = try rig.speak(job)
        rig.finish()
        let scalars = Array(text.unicodeScalars)
        let words = events.compactMap { event -> (String, UInt64)? in
            guard case .word(_, let range, let position) = event else { return nil }
            var word = ""
            word.unicodeScalars.append(contentsOf: scalars[range])
            return (word, position)
        }
        #expect(words.map(\.0) == ["Meeting", "with", "たなかさん", "at", "three"])
        #expect(zip(words, words.dropFirst()).allSatisfy { $0.1 < $1.1 }, "\(words)")
        guard case .end(_, let end) = events.last else { return }
        // The Japanese voice's speech sits between the model's sines: not a sine's full scale.
        let japanese = rig.store.contents[Int(words[2].1)..<Int(words[3].1)]
        #expect(japanese.count > 11025 && rootMeanSquare(japanese) > 500 && rootMeanSquare(japanese) < 10000)
        #expect(Int(end) == rig.store.contents.count)
    }

    @Test func `an SSML audio clip plays between the model's sentences, its fallback text unspoken`() async throws {
        let tiny = try TinyVoice()
        let tone = (0..<4410).map { Int16(8000 * sin(Double($0) * 0.1)) }
        let clip = tiny.folder.file("tone.wav")
        #expect(SoundFileContents.writeWAV(tone, sampleRate: 22050, to: clip))
        let rig = try await NeuralRig.start()
        let events = try rig.speak(
            rig.job(
                "<speak>Hello. <audio src=\"\(clip)\">not spoken</audio> Good night.</speak>", voice: try voice(tiny)))
        rig.finish()
        let samples = rig.store.contents
        let words = events.compactMap {
            if case .word(_, let text, let position) = $0 { (text, position) } else { nil }
        }
        // "Hello. not spoken Good night.": the fallback's words are not spoken, but the clip says
        // them: they are revealed while it plays, the first at its first sample.
        #expect(words.map(\.0) == [0..<5, 7..<10, 11..<17, 18..<22, 23..<28])
        guard words.count == 5 else { return }
        // The clip, sample for sample, from its first word on, before the sentence of "Good".
        let between = Array(samples[Int(words[1].1)..<Int(words[3].1)])
        let found = (0...(between.count - tone.count)).first { between[$0..<($0 + tone.count)].elementsEqual(tone) }
        #expect(found == 0, "the clip is played as it is, from its first word's position")
        // "spoken" is 4 of the phrase's 10 characters in: that share of the clip's 4,410 samples.
        #expect(words[2].1 - words[1].1 == 1764, "\(words)")
        #expect(found != nil, "the clip is played as it is")
    }

    @Test func `the words of the text are reported whole, once, in order, from the model's durations`() async throws {
        let text = "It's currently 9:15 AM. A meeting with S.H.I.E.L.D. at 2 PM; there's an e-mail at 72°F."
        let tiny = try TinyVoice()
        let rig = try await NeuralRig.start()
        let events = try rig.speak(rig.job("<speak>\(text)</speak>", voice: try voice(tiny)))
        rig.finish()
        let scalars = Array(text.unicodeScalars)
        let words = events.compactMap { event -> (String, UInt64)? in
            guard case .word(_, let range, let position) = event else { return nil }
            return (String(String.UnicodeScalarView(scalars[range])), position)
        }
        #expect(
            words.map(\.0) == [
                "It's", "currently", "9:15", "AM", "A", "meeting", "with", "S.H.I.E.L.D", "at", "2", "PM", "there's",
                "an", "e-mail", "at", "72°F",
            ])
        #expect(zip(words, words.dropFirst()).allSatisfy { $0.1 <= $1.1 }, "\(words)")
        guard case .audioStart(_, let start) = events.first, case .end(_, let end) = events.last,
            let last = words.last?.1
        else { return }
        #expect(Double(last - start) > 0.8 * Double(end - start), "the last word at \(last - start) of \(end - start)")
    }

    @Test func `an SSML break between words is silence of its length, the words around it spoken`() async throws {
        let tiny = try TinyVoice()
        let rig = try await NeuralRig.start()
        var job = rig.job("<speak>Hello <break time=\"700ms\"/> world.</speak>", voice: try voice(tiny))
        job.segmenter.breaksEndSegments = true  // as JobFactory sets it for neural voices
        let events = try rig.speak(job)
        rig.finish()
        let words = events.compactMap { if case .word(_, _, let position) = $0 { Int(position) } else { nil } }
        try #require(words.count == 2, "\(events)")
        var longest = 0
        var run = 0
        for sample in rig.store.contents[words[0]..<words[1]] {
            run = sample == 0 ? run + 1 : 0
            longest = max(longest, run)
        }
        // 700 ms of digital silence, and at most the model's own silences at the sentence's ends.
        #expect(longest >= 15435 && longest < 15435 + 11025, "\(longest) samples of silence between the words")
    }

    /// `ssml` spoken by `tiny` as JobFactory sets neural jobs up: each word's sample and the
    /// end, from the message's first sample.
    func spoken(_ ssml: String, by tiny: TinyVoice, rig: NeuralRig, speed: Double = 1) throws -> (
        words: [Int], end: Int, samples: [Int16]
    ) {
        var job = rig.job(ssml, voice: try voice(tiny), speed: speed)
        job.segmenter.breaksEndSegments = true
        job.segmenter.prosodyRatesEndSegments = true
        let events = try rig.speak(job)
        guard case .audioStart(_, let start) = events.first, case .end(_, let end) = events.last else {
            throw SpawnError(what: "unexpected events \(events)", code: EINVAL)
        }
        let words = events.compactMap { if case .word(_, _, let position) = $0 { Int(position - start) } else { nil } }
        return (words, Int(end - start), Array(rig.store.contents[Int(start)..<Int(end)]))
    }

    @Test(arguments: [("50%", 0.5), ("x-fast", 1.6), ("300%", 3.0)])
    func `SSML prosody rate paces the words it holds as the message's rate would, the words around them kept`(
        rate: String, speed: Double
    ) async throws {
        let tiny = try TinyVoice()
        let rig = try await NeuralRig.start()
        let plain = try spoken("<speak>Hello big world again.</speak>", by: tiny, rig: rig)
        let paced = try spoken("<speak>Hello big world again.</speak>", by: tiny, rig: rig, speed: speed)
        let marked = try spoken(
            "<speak>Hello <prosody rate=\"\(rate)\">big world</prosody> again.</speak>", by: tiny, rig: rig)
        rig.finish()
        try #require(plain.words.count == 4 && paced.words.count == 4 && marked.words.count == 4)
        // The sentence is cut where the rate changes, and joined as a cut clause is: without the
        // word gap (the space's id, 3) at each join, so "Hello" is that much shorter at the normal
        // pace and "big world" at its own (the model's length scale, then libsonic).
        let modelSpeed = min(max(speed, 0.5), 1.5)
        let gap = Double(TinyVoice.frames(3, lengthScale: Float(1 / modelSpeed)) * 256) / (speed / modelSpeed)
        let expected = Double(paced.words[3] - paced.words[1]) - gap
        let heard = marked.words[3] - marked.words[1]
        let normal = plain.words[3] - plain.words[1]
        // libsonic compresses each sentence on its own: off by at most a sentence's rounding.
        let tolerance = speed > modelSpeed ? 256.0 : 1
        #expect(
            abs(Double(heard) - expected) <= tolerance,
            "\(heard) samples, \(expected) at the rate alone, \(normal) normal")
        // "Hello" and "again." at the message's own pace.
        let normalGap = TinyVoice.frames(3) * 256
        #expect(marked.words[1] - marked.words[0] == plain.words[1] - plain.words[0] - normalGap)
        #expect(marked.end - marked.words[3] == plain.end - plain.words[3])
        // The joins are no sentence ends: no run of silence longer than a pad's frame between the words.
        var longest = 0
        var run = 0
        for sample in marked.samples[marked.words[0]..<marked.words[3]] {
            run = sample == 0 ? run + 1 : 0
            longest = max(longest, run)
        }
        #expect(longest < 256, "\(longest) samples of digital silence inside the sentence")
    }

    @Test func `SSML prosody volume is a gain on the words it holds, their timing unchanged`() async throws {
        let tiny = try TinyVoice()
        let rig = try await NeuralRig.start()
        let plain = try spoken("<speak>Hello big world again.</speak>", by: tiny, rig: rig)
        let quiet = try spoken(
            "<speak>Hello <prosody volume=\"-12dB\">big world</prosody> again.</speak>", by: tiny, rig: rig)
        let loud = try spoken(
            "<speak><prosody volume=\"x-soft\">Hello <prosody volume=\"+6dB\">big world</prosody></prosody> again.</speak>",
            by: tiny, rig: rig)
        rig.finish()
        try #require(plain.words.count == 4 && quiet.words.count == 4 && loud.words.count == 4)
        #expect(quiet.words == plain.words && quiet.end == plain.end, "a volume changes no timing")
        func level(_ spoken: (words: [Int], end: Int, samples: [Int16]), _ from: Int, _ to: Int) -> Double {
            let margin = (to - from) / 8
            return rootMeanSquare(spoken.samples[(from + margin)..<(to - margin)])
        }
        let full = level(plain, plain.words[0], plain.words[1])
        // −12 dB: a quarter of the amplitude (10^(−12/20) = 0.251).
        let held = level(quiet, quiet.words[1], quiet.words[3]) / full
        #expect(abs(held - 0.251) < 0.01, "−12 dB: \(held) of the level")
        #expect(abs(level(quiet, quiet.words[0], quiet.words[1]) / full - 1) < 0.01)
        #expect(abs(level(quiet, quiet.words[3], quiet.end) / full - 1) < 0.01, "after </prosody>: full level")
        // Nested: x-soft is 0.3 of the level, +6 dB inside it twice that; after both, full again.
        #expect(abs(level(loud, loud.words[0], loud.words[1]) / full - 0.3) < 0.01)
        #expect(abs(level(loud, loud.words[1], loud.words[3]) / full - 0.599) < 0.012)
        #expect(abs(level(loud, loud.words[3], loud.end) / full - 1) < 0.01)
    }

    @Test(arguments: ["Hello.", "Hello"])
    func `a mark after a break is reported with the speech after the silence, not at its start`(first: String)
        async throws
    {
        let tiny = try TinyVoice()
        let rig = try await NeuralRig.start()
        var job = rig.job(
            "<speak>\(first) <break time=\"700ms\"/><mark name=\"m\"/>Good night!</speak>", voice: try voice(tiny))
        job.segmenter.breaksEndSegments = true
        let events = try rig.speak(job)
        rig.finish()
        let samples = rig.store.contents
        let words = events.compactMap { if case .word(_, _, let position) = $0 { Int(position) } else { nil } }
        let marks = events.compactMap { if case .mark(_, "m", let position) = $0 { Int(position) } else { nil } }
        try #require(words.count == 3 && marks.count == 1, "\(events)")
        // The break's 700 ms of zeros, and the first sound after them.
        var run = 0
        var silenceEnd = 0
        for index in words[0]..<words[1] {
            run = samples[index] == 0 ? run + 1 : 0
            if run >= 15435 { silenceEnd = index + 1 }
        }
        let sound = try #require(samples[silenceEnd...].firstIndex { $0 != 0 })
        #expect(silenceEnd > 0, "700 ms of silence between the words")
        #expect(marks[0] >= sound, "the mark at \(marks[0]), the sound after the break at \(sound)")
        #expect(marks[0] == words[1], "the mark with the word it stands before")
    }

    @Test func `STOP ends a running inference and the next message is spoken`() async throws {
        let slow = try TinyVoice(["--slow"])
        let good = try TinyVoice()
        let expected = try await Expected.of(Self.ssml)
        let rig = try await NeuralRig.start()
        let stopped = rig.job("<speak>This takes seconds. And more.</speak>", voice: try voice(slow))
        rig.synthesizer.submit(stopped)
        var events: [SynthesisEvent] = []
        while !events.contains(where: { if case .audioStart = $0 { true } else { false } }) {
            events += rig.synthesizer.takeEvents()
            usleep(2000)
        }
        usleep(300_000)  // loaded and inferring (a run of the slow model takes seconds)
        rig.synthesizer.cancel(through: stopped.id)
        let start = rig.store.contents.count
        let next = try rig.speak(rig.job(Self.ssml, voice: try voice(good)))
        events += rig.synthesizer.takeEvents()
        rig.finish()
        #expect(start == 0, "nothing of the stopped message was written")
        #expect(!events.contains { if case .end(stopped.id, _) = $0 { true } else { false } })
        #expect(!rig.logs.all.contains { $0.contains("left out") }, "the ended run is not an error: \(rig.logs.all)")
        check(next, against: expected, samples: rig.store.contents)
    }
}

extension SynthesisEvent {
    func shifted(by offset: Int64) -> SynthesisEvent {
        func move(_ position: UInt64) -> UInt64 { UInt64(Int64(position) + offset) }
        return switch self {
        case .audioStart(let job, let position): .audioStart(job: job, position: move(position))
        case .mark(let job, let name, let position): .mark(job: job, name: name, position: move(position))
        case .word(let job, let text, let position): .word(job: job, text: text, position: move(position))
        case .progress(let job, let position): .progress(job: job, position: move(position))
        case .end(let job, let position): .end(job: job, position: move(position))
        }
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}

func writeBytes(_ path: String, _ bytes: [UInt8]) {
    guard let file = fopen(path, "wb") else { return }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
}
