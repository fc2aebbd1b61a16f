import Testing
import TestSupport
import UtterKit

/// The public API, rendering to sound files: every event is checked against the samples.
@Suite(.serialized)
struct SpeakerTests {
    /// Runs `body` with a speaker rendering to a new WAV file; returns the file's samples.
    private func rendering(
        _ body: (Speaker) async throws -> Void
    ) async throws -> SoundFileContents {
        let folder = TemporaryFolder()
        let path = folder.file("speech.wav")
        await EngineTurns.take()
        defer { EngineTurns.release() }
        do {
            let speaker = try Speaker(output: .file(path: path))
            try await body(speaker)
        }
        return try #require(SoundFileContents(path: path))
    }

    private func events(_ stream: AsyncStream<SpeechEvent>) async -> [SpeechEvent] {
        var all: [SpeechEvent] = []
        for await event in stream { all.append(event) }
        return all
    }

    private func words(_ events: [SpeechEvent], in text: String) -> [String] {
        events.compactMap { if case .word(let range) = $0 { String(text[range]) } else { nil } }
    }

    @Test func `a sentence is rendered with its words, in order, between started and finished`() async throws {
        let text = "Hello world, this is Utter speaking."
        var heard: [SpeechEvent] = []
        let file = try await rendering { speaker in
            heard = await events(speaker.speak(Utterance(text: text)))
        }
        #expect(heard.first == .started)
        #expect(heard.last == .finished)
        #expect(words(heard, in: text) == ["Hello", "world", "this", "is", "Utter", "speaking"])
        #expect(file.sampleRate == 22050 && file.channels == 1)
        #expect(file.duration > 1.2 && file.duration < 5, "\(file.duration) s")
        #expect(rootMeanSquare(file.samples) > 500)
    }

    @Test func `SSML marks arrive in order and words index the text content`() async throws {
        let utterance = Utterance(ssml: "<speak>Fish &amp; <mark name=\"one\"/>chips, <mark name=\"two\"/>please.</speak>")
        #expect(utterance.text == "Fish & chips, please.")
        var heard: [SpeechEvent] = []
        _ = try await rendering { speaker in
            heard = await events(speaker.speak(utterance))
        }
        let marks = heard.compactMap { if case .mark(let name) = $0 { name } else { nil } }
        #expect(marks == ["one", "two"])
        #expect(words(heard, in: utterance.text) == ["Fish", "&", "chips", "please"])
        // Each mark comes right before the word it precedes.
        let order = heard.compactMap { event -> String? in
            switch event {
            case .mark(let name): name
            case .word(let range): String(utterance.text[range])
            default: nil
            }
        }
        #expect(order == ["Fish", "&", "one", "chips", "two", "please"])
    }

    @Test func `queued utterances play back to back, each delay a stretch of silence`() async throws {
        var first = Utterance(text: "One.")
        first.postDelay = 0.5
        var second = Utterance(text: "Two.")
        second.preDelay = 0.25
        var heard: ([SpeechEvent], [SpeechEvent]) = ([], [])
        let file = try await rendering { speaker in
            let a = speaker.speak(first)
            let b = speaker.speak(second)
            #expect(speaker.isSpeaking)
            heard = (await events(a), await events(b))
            #expect(!speaker.isSpeaking)
        }
        #expect(heard.0 == [.started, .word("One.".startIndex..<"One.".index("One.".startIndex, offsetBy: 3)), .finished])
        #expect(heard.1.first == .started && heard.1.last == .finished)
        // The longest run of exact zeros is the two delays together (0.75 s), plus the voices' own pause.
        var longest = 0
        var run = 0
        for sample in file.samples {
            run = sample == 0 ? run + 1 : 0
            longest = max(longest, run)
        }
        #expect(longest >= Int(0.75 * 22050), "longest silence \(longest) samples")
        #expect(longest < Int(1.5 * 22050), "longest silence \(longest) samples")
    }

    @Test func `stop right after speaking cancels the utterance and the queue, and ends the file there`() async throws {
        // Forty sentences, over a minute of speech, take the engine far longer to render than the
        // stop takes to arrive. (Stopping and pausing at boundaries: SpeakerDeviceTests, in real time.)
        let long = String(repeating: "This sentence goes on and on. ", count: 40)
        var heard: ([SpeechEvent], [SpeechEvent]) = ([], [])
        let file = try await rendering { speaker in
            let a = speaker.speak(Utterance(text: long))
            let b = speaker.speak(Utterance(text: "Never heard."))
            speaker.stop()
            heard = (await events(a), await events(b))
            #expect(!speaker.isSpeaking)
        }
        #expect(heard.0.last == .cancelled)
        #expect(heard.1 == [.cancelled])
        #expect(file.duration < 20, "\(file.duration) s rendered")
    }

    @Test func `the voice, rate and volume are applied`() async throws {
        var german = Utterance(text: "Guten Tag, wie geht es Ihnen heute?")
        german.voice = "German"
        let normal = try await rendering { speaker in _ = await events(speaker.speak(german)) }
        german.rate = 1
        german.volume = 0.25
        let fastQuiet = try await rendering { speaker in _ = await events(speaker.speak(german)) }
        #expect(fastQuiet.duration < normal.duration * 0.7, "\(fastQuiet.duration) vs \(normal.duration)")
        let ratio = rootMeanSquare(fastQuiet.samples) / rootMeanSquare(normal.samples)
        #expect(ratio > 0.15 && ratio < 0.4, "loudness ratio \(ratio)")
    }

    @Test func `voices are described, and bad names and files are refused with what to do`() async throws {
        await EngineTurns.take()
        defer { EngineTurns.release() }
        let folder = TemporaryFolder()
        let speaker = try Speaker(output: .file(path: folder.file("x.flac")))
        let british = try #require(speaker.voices.first { $0.name == "English (Great Britain)" })
        #expect(british.primaryLanguage == "en-GB")
        #expect(british.kind == .espeakNG)
        #expect(british.identifier.hasPrefix("espeak-ng:"))
        #expect(try speaker.voice(named: "german").name == "German")
        #expect(throws: SpeakerError.unknownVoice("Nobody")) { try speaker.voice(named: "Nobody") }
        #expect(
            SpeakerError.unknownVoice("Nobody").description
                == "No voice is called 'Nobody'. Speaker.voices (or 'utter voices') lists them.")
        #expect(throws: SpeakerError.self) { try Speaker(output: .file(path: folder.file("other.wav"))) }
    }

    @Test func `a file that cannot be written is refused before anything is spoken`() async throws {
        await EngineTurns.take()
        defer { EngineTurns.release() }
        #expect(throws: SpeakerError.fileNotWritable(path: "/nonexistent/x.wav", reason: "No such file or directory")) {
            try Speaker(output: .file(path: "/nonexistent/x.wav"))
        }
        let folder = TemporaryFolder()
        #expect(
            throws: SpeakerError.fileNotWritable(
                path: folder.file("x.mp4"), reason: "its name must end with .wav, .flac, .ogg, .oga, .aiff, .au or .caf")
        ) {
            try Speaker(output: .file(path: folder.file("x.mp4")))
        }
    }

    @Test func `FLAC and Ogg files are written in their formats`() async throws {
        let folder = TemporaryFolder()
        await EngineTurns.take()
        for name in ["x.flac", "x.ogg"] {
            do {
                let speaker = try Speaker(output: .file(path: folder.file(name)))
                _ = await events(speaker.speak(Utterance(text: "Compressed.")))
            }
            let file = try #require(SoundFileContents(path: folder.file(name)))
            #expect(file.container == String(name.dropFirst(2)))
            #expect(file.duration > 0.4 && rootMeanSquare(file.samples) > 300, "\(name)")
        }
        EngineTurns.release()
    }
}
