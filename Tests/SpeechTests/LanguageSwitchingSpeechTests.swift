import Playback
import SSML
import Speech
import TestSupport
import Testing

/// Messages in several scripts, synthesised and played in this process: each part is spoken by the
/// voice of its language, as long as that voice takes for it alone, with marks and words exact.
@Suite struct LanguageSwitchingSpeechTests {
    private static let voices = [
        "en": "gmw/en-US", "en-us": "gmw/en-US", "ja": "jpx/ja", "de": "gmw/de", "ru": "zle/ru", "el": "grk/el",
    ]

    private func segmenter(_ language: String, automatic: Bool = true) -> Segmenter {
        Segmenter(
            languageSwitching: LanguageSwitching(
                messageLanguage: language, voiceScripts: Script.scripts(ofLanguage: language), isAutomatic: automatic,
                availableLanguages: Set(Self.voices.keys)))
    }

    /// The message's start, its marks' positions in order, and its end.
    private func positions(_ events: [SynthesisEvent]) -> (start: UInt64, marks: [String: UInt64], end: UInt64)? {
        guard case .audioStart(_, let start) = events.first, case .end(_, let end) = events.last else { return nil }
        var marks: [String: UInt64] = [:]
        for case .mark(_, let name, let position) in events { marks[name] = position }
        return (start, marks, end)
    }

    /// Where `text` spoken alone by `voice` starts and ends in the capture.
    private func alone(_ speech: InProcessSpeech, _ text: String, voice: String, language: String) throws -> Range<Int> {
        let events = try speech.speak("<speak>\(text)</speak>", voice: voice, segmenter: segmenter(language))
        let found = try #require(positions(events))
        return Int(found.start)..<Int(found.end)
    }

    /// How long the sound in `range` of `samples` lasts, from its first audible sample to its last:
    /// a part spoken alone ends with a sentence's pause, one followed by another voice does not,
    /// and the pause libespeak-ng puts before a part in another voice depends on what it spoke
    /// before (10, 50 or 90 ms before the same words: measured after other messages of this
    /// suite), while the words themselves take the same time, to a fraction of a percent.
    private func voiced(_ samples: [Int16], _ range: Range<Int>) -> Double {
        let first = samples[range].firstIndex { abs(Int($0)) > 200 } ?? range.lowerBound
        let last = samples[range].lastIndex { abs(Int($0)) > 200 } ?? range.lowerBound
        return Double(last + 1 - first)
    }

    @Test(arguments: [
        (
            "en-US", "gmw/en-US", "Meeting with ", "田中さん", " at 3 PM", "ja"
        ),
        (
            "de", "gmw/de", "Das Wort ", "Москва", " ist russisch", "ru"
        ),
        (
            "ja", "jpx/ja", "これは", "computer", "です", "en"
        ),
    ])
    func `each part of a mixed message is spoken by its language's voice, as long as alone, marks in order`(
        language: String, voice: String, first: String, middle: String, last: String, middleLanguage: String
    ) async throws {
        let speech = try await InProcessSpeech()
        let events = try speech.speak(
            "<speak>\(first)<mark name=\"a\"/>\(middle)<mark name=\"b\"/>\(last)</speak>", voice: voice,
            segmenter: segmenter(language), languageVoices: Self.voices)
        let names = events.compactMap { event -> String? in
            if case .mark(_, let name, _) = event { return name } else { return nil }
        }
        #expect(names == ["a", "b"])
        let mixed = try #require(positions(events))
        let a = Int(try #require(mixed.marks["a"]))
        let b = Int(try #require(mixed.marks["b"]))
        let alone = [
            try alone(speech, first, voice: voice, language: language),
            try alone(speech, middle, voice: Self.voices[middleLanguage]!, language: middleLanguage),
            try alone(speech, last, voice: voice, language: language),
        ]
        let samples = speech.finish()
        let parts = [voiced(samples, Int(mixed.start)..<a), voiced(samples, a..<b), voiced(samples, b..<Int(mixed.end))]
        let expected = alone.map { voiced(samples, $0) }
        for (part, length) in zip(parts, expected) {
            // (Measured so, the parts came within 4% of their lengths alone; with the pause before
            // them, a run of the whole suite once had the last one 15.3% longer.)
            #expect(abs(part / length - 1) <= 0.10, "\(parts) against \(expected) alone")
        }
        #expect(rootMeanSquare(samples[a..<b]) > 500, "the switched part is heard")
    }

    @Test func `with switching off the voice reads everything itself, and takes longer to spell what it cannot read`()
        async throws
    {
        let speech = try await InProcessSpeech()
        let message = "<speak>Meeting with たなかさん and Ольга</speak>"
        let switched = try #require(positions(try speech.speak(message, segmenter: segmenter("en"), languageVoices: Self.voices)))
        let one = try #require(
            positions(try speech.speak(message, segmenter: segmenter("en", automatic: false), languageVoices: Self.voices)))
        // The English voice names each kana "Japanese letter": far longer than the name said.
        #expect(Double(one.end - one.start) > 1.3 * Double(switched.end - switched.start))
    }

    @Test func `words are reported in order across switches, each mapped to its text, kanji included`() async throws {
        let speech = try await InProcessSpeech()
        let text = "Meeting with 田中さん at three"
        let events = try speech.speak(
            "<speak>\(text)</speak>", segmenter: segmenter("en"), languageVoices: Self.voices, reportsWords: true)
        let scalars = Array(text.unicodeScalars)
        var words: [String] = []
        var positions: [UInt64] = []
        for case .word(_, let range, let position) in events {
            words.append(String(String.UnicodeScalarView(scalars[range])))
            positions.append(position)
        }
        // Japanese words are the reader's morphemes, mapped back to the kanji.
        #expect(words == ["Meeting", "with", "田中", "さん", "at", "three"])
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 }, "\(positions)")
    }
}
