import Foundation
import Piper
import SSML
import Testing

@Suite struct PiperVoiceConfigTests {
    static let minimal = """
        {
          "audio": {"sample_rate": 22050},
          "espeak": {"voice": "en-us"},
          "inference": {"noise_scale": 0.667, "length_scale": 1, "noise_w": 0.8},
          "phoneme_id_map": {"_": [0], "^": [1], "$": [2], " ": [3], "a": [4], "b": [5, 6]},
          "num_speakers": 1,
          "speaker_id_map": {},
          "language": {"code": "en_US"}
        }
        """

    @Test func `a voice JSON gives what synthesis needs`() throws {
        let config = try PiperVoiceConfig.parse(Self.minimal).get()
        #expect(config.sampleRate == 22050)
        #expect(config.espeakVoice == "en-us")
        #expect(config.language == "en-US")
        #expect(config.noiseScale == Float(0.667) && config.lengthScale == 1 && config.noiseWidth == Float(0.8))
        #expect(config.phonemeIDs["b"] == [5, 6])
        #expect(config.speakerCount == 1 && config.speakers.isEmpty)
    }

    @Test func `speakers are listed in the order of their ids`() throws {
        let text = Self.minimal.replacingOccurrences(
            of: "\"speaker_id_map\": {}", with: "\"speaker_id_map\": {\"zoe\": 1, \"amy\": 0}"
        ).replacingOccurrences(of: "\"num_speakers\": 1", with: "\"num_speakers\": 2")
        let config = try PiperVoiceConfig.parse(text).get()
        #expect(config.speakers.map(\.name) == ["amy", "zoe"])
        #expect(config.speakerCount == 2)
    }

    @Test func `a bad voice JSON names every problem`() {
        let text = """
            {"audio": {"sample_rate": "fast"}, "inference": {"noise_scale": 0.6, "length_scale": 1},
             "phoneme_id_map": {"ab": [1], "_": [0], "x": "y"}}
            """
        guard case .failure(let error) = PiperVoiceConfig.parse(text) else {
            Issue.record("accepted")
            return
        }
        #expect(
            error.problems == [
                "line 1: audio.sample_rate is \"fast\", not a whole number from 1000 to 384000",
                "espeak is missing",
                "inference.noise_w is missing",
                "line 2: phoneme_id_map key \"ab\" is not one character",
                "line 2: phoneme_id_map.x is \"y\", not a list of ids",
                "phoneme_id_map has no \"^\", which Piper models need",
                "phoneme_id_map has no \"$\", which Piper models need",
            ])
    }

    @Test func `a file that is not JSON is refused`() {
        guard case .failure(let error) = PiperVoiceConfig.parse("{\"audio\": ") else {
            Issue.record("accepted")
            return
        }
        #expect(error.description.hasPrefix("not JSON: "))
    }

    @Test func `phoneme ids follow Piper's start, pad and end convention`() throws {
        let config = try PiperVoiceConfig.parse(Self.minimal).get()
        let ids = PhonemeIDs(phonemes: Array("ab a?".unicodeScalars), map: config.phonemeIDs)
        // ^ _ a _ b(5 6) _ ' ' _ a _ $   ("?" is not in the map: skipped)
        #expect(ids.ids == [1, 0, 4, 0, 5, 6, 0, 3, 0, 4, 0, 2])
        #expect(ids.starts == [2, 4, 7, 9, 11])
        #expect(ids.missing == ["?"])
    }
}

@Suite struct PiperSentenceTests {
    /// "Hi there, you. Bye!" as libespeak-ng 1.51 gives it: each clause without its punctuation,
    /// the pointer past the first letter of the next word.
    static let text = NeuralText(segment: SpeechSegment(markup: "<speak>Hi there, you. Bye!</speak>"))
    static let clauses = [
        PhonemizedClause(phonemes: "hˈaɪ ðɛɹ", text: 0..<11),
        PhonemizedClause(phonemes: "juː", text: 11..<17),
        PhonemizedClause(phonemes: "bˈaɪ", text: 17..<19),
    ]

    @Test func `clauses become Piper's sentences with their punctuation, words at their first phoneme`() {
        #expect(Self.text.string == "Hi there, you. Bye!")
        let sentences = PiperSentence.sentences(text: Self.text, clauses: Self.clauses)
        #expect(sentences.map { String(String.UnicodeScalarView($0.phonemes)) } == ["hˈaɪ ðɛɹ, juː.", "bˈaɪ!"])
        #expect(sentences[0].words.map(\.text) == [0..<2, 3..<8, 10..<13])
        #expect(sentences[0].words.map(\.phoneme) == [0, 5, 10])
        #expect(sentences[1].words.map(\.text) == [15..<18])
    }

    @Test func `the first clause can be a sentence of its own`() {
        let sentences = PiperSentence.sentences(text: Self.text, clauses: Self.clauses, firstClauseAlone: true)
        #expect(sentences.map { String(String.UnicodeScalarView($0.phonemes)) } == ["hˈaɪ ðɛɹ,", "juː.", "bˈaɪ!"])
    }

    @Test func `a long first clause is cut after its first words when the first clause is alone`() {
        let text = NeuralText(segment: SpeechSegment(markup: "<speak>One two three four five six seven.</speak>"))
        let clauses = [PhonemizedClause(phonemes: "wˈʌn tuː θɹiː fɔːɹ faɪv sɪks sɛvən", text: 0..<34)]
        let cut = PiperSentence.sentences(text: text, clauses: clauses, firstClauseAlone: true)
        #expect(
            cut.map { String(String.UnicodeScalarView($0.phonemes)) } == ["wˈʌn tuː θɹiː", "fɔːɹ faɪv sɪks sɛvən."])
        #expect(cut.map(\.endsMidClause) == [true, false] && cut.map(\.startsMidClause) == [false, true])
        #expect(cut[0].words.map(\.text) == [0..<3, 4..<7, 8..<13] && cut[0].words.map(\.phoneme) == [0, 5, 9])
        #expect(cut[1].words.map(\.text) == [14..<18, 19..<23, 24..<27, 28..<33])
        #expect(cut[1].words.map(\.phoneme) == [0, 5, 10, 15])
        let whole = PiperSentence.sentences(text: text, clauses: clauses)
        #expect(whole.count == 1 && whole[0].words.count == 7 && !whole[0].endsMidClause)
        let five = PiperSentence.sentences(
            text: text, clauses: [PhonemizedClause(phonemes: "wˈʌn tuː θɹiː fɔːɹ faɪv", text: 0..<23)],
            firstClauseAlone: true)
        #expect(five.map(\.words.count) == [3, 2], "five words are cut after three")
        let four = PiperSentence.sentences(
            text: text, clauses: [PhonemizedClause(phonemes: "wˈʌn tuː θɹiː fɔːɹ", text: 0..<18)],
            firstClauseAlone: true)
        #expect(four.count == 1, "four words are synthesised at once")
    }

    @Test func `a first clause of 22 words is cut after 3 and 15 words, 21 words after 3`() {
        func pieces(_ count: Int) -> [PiperSentence] {
            let words = (0..<count).map { _ in "ab" }
            let text = NeuralText(segment: SpeechSegment(markup: "<speak>" + words.joined(separator: " ") + "</speak>"))
            return PiperSentence.sentences(
                text: text, clauses: [PhonemizedClause(phonemes: words.joined(separator: " "), text: 0..<(3 * count))],
                firstClauseAlone: true)
        }
        let long = pieces(22)
        #expect(long.map(\.words.count) == [3, 12, 7])
        #expect(
            long.map(\.startsMidClause) == [false, true, true] && long.map(\.endsMidClause) == [true, true, false])
        #expect(long[2].words.first?.text == 45..<47 && long[2].words.first?.phoneme == 0)
        #expect(pieces(21).map(\.words.count) == [3, 18])
    }

    @Test func `prosody rate and volume are kept for each character as libespeak-ng reads them`() {
        let text = NeuralText(
            segment: SpeechSegment(
                markup: "<speak>a <prosody rate='x-slow' volume='x-soft'>b <prosody rate=\"+50%\" volume=\"200%\">c"
                    + "</prosody> d <prosody rate=\"2\" volume=\"-50%\">e</prosody></prosody> f "
                    + "<prosody rate=\"fast\" volume=\"silent\">g</prosody> "
                    + "<prosody rate=\"nan\" volume=\"-\">h</prosody></speak>"))
        #expect(text.string == "a b c d e f g h")
        #expect(text.rates.count == text.scalars.count && text.volumes.count == text.scalars.count)
        let rates = stride(from: 0, to: 16, by: 2).map { text.rates[$0] }
        let volumes = stride(from: 0, to: 16, by: 2).map { text.volumes[$0] }
        #expect(rates.map { ($0 * 1000).rounded() / 1000 } == [1, 0.6, 0.9, 0.6, 1.2, 1, 1.25, 1])
        #expect(volumes.map { ($0 * 1000).rounded() / 1000 } == [1, 0.3, 0.6, 0.3, 0.15, 1, 0, 1])
        #expect(text.rate == 1, "the first letter's")
    }

    @Test func `prosody pitch is kept for each character, nested changes combined`() {
        let text = NeuralText(
            segment: SpeechSegment(
                markup: "<speak>a <prosody rate='slow' pitch='+20%'>b <prosody pitch=\"high\">c</prosody> "
                    + "d <prosody pitch=\"-2st\">e</prosody></prosody> f <prosody pitch=\"90Hz\">g</prosody></speak>"))
        #expect(text.string == "a b c d e f g")
        let twenty = NeuralText.Pitch(factor: 1.2, semitones: 0)
        #expect(text.pitches[0] == .normal && text.pitches[2] == twenty)
        #expect(text.pitches[4] == NeuralText.Pitch(factor: 1.2, semitones: 3))
        #expect(text.pitches[6] == twenty)
        #expect(text.pitches[8] == NeuralText.Pitch(factor: 1.2, semitones: -2))
        #expect(text.pitches[10] == .normal, "after the outer </prosody>")
        #expect(text.pitches[12] == NeuralText.Pitch(hertz: 90), "in Hz: made a ratio with the voice's F0")
        #expect(text.pitches[12].hertzRatio(voiceHertz: 120) == 0.75)
        #expect(text.pitches[12].hertzRatio(voiceHertz: nil) == 1, "the voice's F0 not known: left out")
        // Hertz added to the voice's F0 (nested: added up), an absolute pitch starts again.
        let added = NeuralText.Pitch.normal.changed(by: "+20Hz")?.changed(by: "-5hz")
        #expect(added == NeuralText.Pitch(added: 15) && added?.hertzRatio(voiceHertz: 100) == 1.15)
        #expect(NeuralText.Pitch(factor: 2).changed(by: "150Hz") == NeuralText.Pitch(hertz: 150))
        #expect(NeuralText.Pitch(semitones: 2).hertzRatio(voiceHertz: 100) == 1, "no hertz: no ratio")
        for bad in ["-100%", "loud", "nan%", "nanst", "infst", "%", "st", "0Hz", "-20", "nanHz", "Hz"] {
            #expect(NeuralText.Pitch.normal.changed(by: bad) == nil, "\(bad)")
        }
    }

    @Test func `an inline mark goes before the word after it`() {
        let segment = SpeechSegment(markup: "<speak>Hi <mark name=\"m0\"/>there.</speak>", inlineMarks: ["x"])
        let text = NeuralText(segment: segment)
        #expect(text.marks.map(\.index) == [0] && text.marks.map(\.offset) == [3])
        let sentences = PiperSentence.sentences(
            text: text, clauses: [PhonemizedClause(phonemes: "hˈaɪ ðɛɹ", text: 0..<9)])
        #expect(sentences[0].marks.map(\.index) == [0] && sentences[0].marks.map(\.phoneme) == [5])
    }

    @Test func `durations give each phoneme's first sample; without them ids are spread evenly`() {
        let timed = PiperTimeline(idCount: 4, durations: [1, 2, 0, 3], sampleCount: 6 * 256)
        #expect(timed.idStarts == [0, 256, 768, 768])
        let even = PiperTimeline(idCount: 4, durations: nil, sampleCount: 1000)
        #expect(even.idStarts == [0, 250, 500, 750])
        let wrongCount = PiperTimeline(idCount: 4, durations: [1, 2], sampleCount: 1000)
        #expect(wrongCount.idStarts == even.idStarts)
        #expect(timed.isMeasured && !even.isMeasured && !wrongCount.isMeasured)
    }
}
