import Playback
import SSML
import Testing

/// The engine's words turned into the text's: merged, filled in, each once and in order.
@Suite struct WordAlignerTests {
    /// The words `aligner` reports for engine words over `ranges` at positions 100, 200, …, then
    /// the job's end at 10,000: each as its text and position.
    private func aligned(_ text: String, _ ranges: [Range<Int>]) -> [String] {
        var aligner = WordAligner(text: text)
        var events = ranges.enumerated().map { SynthesisEvent.word(job: 1, text: $1, position: UInt64(100 * ($0 + 1))) }
        events.append(.end(job: 1, position: 10_000))
        let scalars = Array(text.unicodeScalars)
        return aligner.align(events).compactMap { event in
            guard case .word(_, let range, let position) = event else { return nil }
            var word = String.UnicodeScalarView()
            word.append(contentsOf: scalars[range])
            return "\(String(word))@\(position)"
        }
    }

    @Test func `engine words inside one text word are one word, at the first one's time`() {
        // espeak-ng: "It" "s", "9" "15", "72" "°" "F".
        let text = "It's 9:15 at 72°F."
        #expect(aligned(text, [0..<2, 3..<4, 5..<6, 7..<9, 10..<12, 13..<15, 15..<16, 16..<17]) == [
            "It's@100", "9:15@300", "at@500", "72°F@600",
        ])
    }

    @Test func `a word with no engine word comes just before the next one, or at the end`() {
        // S.H.I.E.L.D. spelt under the S's event; "&" skipped; the last word never reported.
        let text = "S.H.I.E.L.D. & me at 2 PM"
        #expect(aligned(text, [0..<1, 15..<17, 18..<20]) == ["S.H.I.E.L.D@100", "&@200", "me@200", "at@300", "2@10000", "PM@10000"])
        #expect(aligned(text, []) == ["S.H.I.E.L.D@10000", "&@10000", "me@10000", "at@10000", "2@10000", "PM@10000"])
    }

    @Test func `an engine word over two text words starts both; engine words out of order are dropped`() {
        let text = "New York is big"
        #expect(aligned(text, [0..<8, 4..<8, 0..<3, 9..<11, 12..<15]) == ["New@100", "York@100", "is@400", "big@500"])
    }

    @Test func `engine words outside any word, and empty ones, report nothing`() {
        let text = "Hi — there!"
        #expect(aligned(text, [0..<2, 3..<4, 5..<5, 10..<11, 5..<10]) == ["Hi@100", "there@500"])
    }

    @Test func `in a run written without spaces the engine's words are the words, and what they miss is one`() {
        // MeCab's morphemes それでは|発表|し|ます; the engine reported no word for し.
        let text = "それでは発表します。IBMの本社"
        #expect(aligned(text, [0..<4, 4..<6, 7..<9, 10..<13, 13..<14, 14..<16]) == [
            "それでは@100", "発表@200", "し@300", "ます@300", "IBM@400", "の@500", "本社@600",
        ])
        // A number and its counter read as one word; what follows it missed, then reached.
        #expect(aligned("3個ですね", [0..<2, 4..<5]) == ["3個@100", "です@200", "ね@200"])
    }

    @Test func `marks, progress and other jobs' events pass as they are, in order`() {
        var aligner = WordAligner(text: "one two")
        let events: [SynthesisEvent] = [
            .audioStart(job: 1, position: 0), .mark(job: 1, name: "a", position: 0), .word(job: 1, text: 4..<7, position: 50),
            .progress(job: 1, position: 80),
        ]
        #expect(aligner.align(events) == [
            .audioStart(job: 1, position: 0), .mark(job: 1, name: "a", position: 0), .word(job: 1, text: 0..<3, position: 50),
            .word(job: 1, text: 4..<7, position: 50), .progress(job: 1, position: 80),
        ])
        #expect(aligner.isFinished)
        #expect(aligner.align([.progress(job: 1, position: 90)]) == [.progress(job: 1, position: 90)])
    }

    @Test func `a clip's phrase is spread over its sound by the characters before each word`() {
        var aligner = WordAligner(text: "Good morning, sir. Bye")
        // The clip says "Good morning, sir" (0..<17) over 1,700 samples from 1,000.
        let spread = aligner.spread(0..<17, over: 1_700, job: 3, from: 1_000)
        #expect(spread == [
            .word(job: 3, text: 0..<4, position: 1_000), .word(job: 3, text: 5..<12, position: 1_500),
            .word(job: 3, text: 14..<17, position: 2_400),
        ])
        #expect(aligner.align(spread).count == 3)
        #expect(aligner.spread(0..<17, over: 1_700, job: 3, from: 1_000) == [], "reported words are not spread again")
    }
}
