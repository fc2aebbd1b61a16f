import ALSAOutput
import Glibc
import Logging
import Playback
import SSML
import Speech
import System
import TestSupport
import Testing
import Voices

/// Synth thread and render thread in this process, playing into an ALSA `file` device: every
/// event's sample position can be checked against the samples the device received.
final class InProcessSpeech {
    let rig = CaptureRig()
    let audio: ALSASink
    /// Nil once finished: the engine is freed with it, before the next test takes its turn.
    var synthesizer: Synthesizer!
    let wake = try! EventFD()
    private var nextJob: UInt64 = 0

    init() async throws {
        await EngineTurns.take()
        let engine: EspeakEngine
        do {
            engine = try EspeakEngine()
        } catch {
            EngineTurns.release()
            throw error
        }
        let alsa = """
            pcm.capture { type file slave.pcm "sink" file "\(rig.capturePath)" format "raw" }
            pcm.sink { type null }
            """
        audio = try ALSASink(
            configuration: AudioConfiguration(deviceName: "capture", alsaConfigText: alsa), controlWake: wake)
        audio.start()
        synthesizer = try Synthesizer(engine: engine, sink: audio, controlWake: wake, logger: .init(label: "test"))
        try synthesizer.start()
    }

    private var isFinished = false

    /// Stops both threads and closes the device, which flushes the capture file; returns it.
    func finish() -> [Int16] {
        if !isFinished {
            isFinished = true
            synthesizer.shutdown()
            synthesizer = nil
            audio.shutdown()
            EngineTurns.release()
        }
        return rig.samples()
    }

    deinit {
        _ = finish()
    }

    /// Speaks `ssml` to the end; returns its events once every sample has been played.
    func speak(
        _ ssml: String, voice: String = "gmw/en-US", segmenter: Segmenter = Segmenter(),
        languageVoices: [String: String] = [:], reportsWords: Bool = false, parameters: EngineParameters = .init()
    ) throws -> [SynthesisEvent] {
        nextJob += 1
        var job = SynthesisJob(
            id: nextJob, ssml: ssml, engineVoice: voice, variant: nil, parameters: parameters, gain: 1,
            segmenter: segmenter)
        job.languageVoices = languageVoices
        job.reportsWords = reportsWords
        synthesizer.submit(job)
        var events: [SynthesisEvent] = []
        let deadline = monotonicSeconds() + 30
        while monotonicSeconds() < deadline {
            events += synthesizer.takeEvents().filter { if case .progress = $0 { false } else { true } }
            if case .end(_, let end) = events.last, audio.playedPosition >= end { return events }
            usleep(2000)
        }
        throw SpawnError(what: "speaking \(ssml)", code: ETIMEDOUT)
    }
}

/// libespeak-ng allows one engine per process: these tests take turns.
@Suite(.serialized)
struct InProcessEngineTests {
    @Test func `the device receives exactly the samples between a job's start and end`() async throws {
        let speech = try await InProcessSpeech()
        let first = try speech.speak("<speak>Counting samples.</speak>")
        let second = try speech.speak("<speak>And once more.</speak>")
        guard case .audioStart(_, let start) = first.first, case .end(_, let end) = second.last else {
            Issue.record("unexpected events \(first) \(second)")
            return
        }
        #expect(start == 0)
        let samples = speech.finish()
        #expect(UInt64(samples.count) == end, "captured samples = ring positions")
        #expect(rootMeanSquare(samples) > 500)
    }

    @Test func `a mark after a full stop sits exactly where the next sentence starts`() async throws {
        let speech = try await InProcessSpeech()
        // The same first sentence, alone (with the sentence pause a following segment brings).
        let alone = try speech.speak("<speak>The first sentence.<mark name=\"end\"/></speak>")
        let both = try speech.speak("<speak>The first sentence.<mark name=\"__spd_0\"/> The second one.</speak>")
        guard case .audioStart(_, let aloneStart) = alone.first, case .mark(_, "end", let aloneMark) = alone[1],
            case .audioStart(_, let start) = both.first, case .mark(_, "__spd_0", let mark) = both[1],
            case .end(_, let end) = both.last
        else {
            Issue.record("unexpected events \(alone) \(both)")
            return
        }
        let firstLength = Double(aloneMark - aloneStart)
        let measured = Double(mark - start)
        // espeak-ng's output varies by a few samples between calls; a misplaced mark is off by thousands.
        #expect(abs(measured - firstLength) < firstLength * 0.01, "mark at \(measured), sentence is \(firstLength)")
        #expect(mark < end && end - mark > 11025, "the second sentence follows the mark")
        // The mark falls in the pause between the sentences: the samples around it are quiet.
        let samples = speech.finish()
        #expect(UInt64(samples.count) == end)
        try #require(mark >= 200 && Int(mark) + 200 <= samples.count, "the mark at \(mark) has 200 samples each side")
        let around = samples[Int(mark) - 200..<Int(mark) + 200]
        #expect(rootMeanSquare(around) < 300, "the mark is in the pause: rms \(rootMeanSquare(around))")
    }

    @Test func `word marks are reported once, in order, at rising sample positions`() async throws {
        let speech = try await InProcessSpeech()
        let words = ["Orca", "puts", "a", "mark", "before", "every", "word.", "Even", "after", "a", "full", "stop."]
        var ssml = "<speak>"
        var offset = 0
        for word in words {
            ssml += "<mark name=\"\(offset):\(offset + word.count)\"/>\(word) "
            offset += word.count + 1
        }
        let events = try speech.speak(ssml + "</speak>")
        var names: [String] = []
        var positions: [UInt64] = []
        for case .mark(_, let name, let position) in events {
            names.append(name)
            positions.append(position)
        }
        var expected: [String] = []
        offset = 0
        for word in words {
            expected.append("\(offset):\(offset + word.count)")
            offset += word.count + 1
        }
        #expect(names == expected)
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 }, "positions rise: \(positions)")
        guard case .audioStart(_, let start) = events.first, case .end(_, let end) = events.last else {
            Issue.record("the events do not start with the audio and end with END: \(events)")
            return
        }
        #expect(positions.first == start)
        #expect(try #require(positions.last) < end)
    }

    @Test func `espeak-ng voices are read with their languages in priority order`() async throws {
        await EngineTurns.take()
        defer { EngineTurns.release() }
        let engine = try EspeakEngine()
        let voices = engine.voices()
        #expect(voices.count > 50)
        let america = try #require(voices.first { $0.identifier == "espeak-ng:gmw/en-US" })
        #expect(america.name == "English (America)")
        #expect(america.primaryLanguages.map(\.tag.description) == ["en-US"])
        #expect(america.supportedLanguages.map(\.tag.description) == ["en"])
        let real = VoiceCatalogue(voices: voices)
        #expect(
            real.select(synthesisVoice: nil, language: "de-de", defaultVoice: nil, defaultLanguage: "en-US")?.voice.name
                == "German")
        #expect(Set(real.listings.map { $0.name.lowercased() }).count == real.listings.count)
    }
}

/// Marks in the sample domain where libespeak-ng speeds itself up with its own libsonic stream
/// (450 words a minute and more).
@Suite(.serialized)
struct FastRateMarkTests {
    /// Every mark stands right before a pause, so the word after it starts where the pause ends:
    /// found from the rendered audio, that must be where the mark was placed.
    @Test(arguments: [175, 900])
    func `each mark sits at the onset of the word after it`(wordsPerMinute: Int) async throws {
        let speech = try await InProcessSpeech()
        var parameters = EngineParameters()
        parameters.wordsPerMinute = wordsPerMinute
        let names = ["a", "b", "c", "d"]
        // A message before it, as a screen reader speaks many: libespeak-ng keeps its libsonic
        // stream between calls.
        _ = try speech.speak("<speak>Hello there.</speak>", parameters: parameters)
        let events = try speech.speak(
            "<speak>One. <mark name=\"a\"/>Alpha, <mark name=\"b\"/>oscar. <mark name=\"c\"/>Echo, "
                + "<mark name=\"d\"/>index.</speak>", parameters: parameters)
        let samples = speech.finish()
        var marks: [String: Int] = [:]
        for case .mark(_, let name, let position) in events { marks[name] = Int(position) }
        try #require(marks.keys.sorted() == names, "every mark reported: \(events)")
        // A pause between words lasts 15 ms or more at 900 words a minute (18 ms after a comma);
        // the closure of a stop consonant inside a word is shorter.
        let pauses = quietRuns(samples, atLeast: 220)
        for name in names {
            let mark = marks[name]!
            let nearest = try #require(pauses.min { abs($0.upperBound - mark) < abs($1.upperBound - mark) })
            let error = Double(mark - nearest.upperBound) / 22.05
            // A mark placed before audio a libsonic stream still holds would be 30 ms or more early.
            #expect(abs(error) <= 3, "mark \(name) is \(error) ms from the onset of its word (\(pauses))")
        }
    }
}
