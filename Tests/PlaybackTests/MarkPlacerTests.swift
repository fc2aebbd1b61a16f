import Playback
import SSML
import Testing

/// The placer, callback by callback, on segments the real segmenter makes.
@Suite struct MarkPlacerTests {
    @Test func `leading marks sit at the segment's start, inline marks at the engine's sample`() throws {
        let segments = Segmenter().segments(of: "<speak><mark name=\"lead\"/>Hello <mark name=\"mid\"/>world</speak>")
        let segment = try #require(segments.first)
        var placer = MarkPlacer(job: 7, segment: segment, base: 1000, placesWords: false)
        #expect(placer.leadingMarks() == [.mark(job: 7, name: "lead", position: 1000)])
        let events = placer.place([.mark(name: "m0", sample: 6776)], chunkStart: 1000, count: 8000, trimmed: 0)
        #expect(events == [.mark(job: 7, name: "mid", position: 7776), .progress(job: 7, position: 9000)])
        #expect(placer.finish(at: 12000) == [])
    }

    @Test func `trimmed leading zeros move marks back, and a mark never passes its chunk's end`() throws {
        let segment = try #require(Segmenter().segments(of: "<speak>a <mark name=\"x\"/>b</speak>").first)
        var placer = MarkPlacer(job: 1, segment: segment, base: 0, placesWords: false)
        #expect(
            placer.place([.mark(name: "m0", sample: 500)], chunkStart: 0, count: 200, trimmed: 331)
                == [.mark(job: 1, name: "x", position: 169), .progress(job: 1, position: 200)])
        var late = MarkPlacer(job: 1, segment: segment, base: 0, placesWords: false)
        #expect(
            late.place([.mark(name: "m0", sample: 5000)], chunkStart: 0, count: 441, trimmed: 0)
                == [.mark(job: 1, name: "x", position: 441), .progress(job: 1, position: 441)])
    }

    @Test func `marks the engine skipped come with the next one, in order; the rest at the end`() throws {
        let segment = try #require(
            Segmenter().segments(
                of: "<speak>a <mark name=\"one\"/>b <mark name=\"two\"/>c <mark name=\"three\"/>d</speak>"
            ).first)
        var placer = MarkPlacer(job: 2, segment: segment, base: 0, placesWords: false)
        #expect(
            placer.place([.mark(name: "m1", sample: 300)], chunkStart: 0, count: 1000, trimmed: 0) == [
                .mark(job: 2, name: "one", position: 300), .mark(job: 2, name: "two", position: 300),
                .progress(job: 2, position: 1000),
            ])
        // A mark that is not ours, or repeated, is ignored; one before the last stays after it.
        #expect(
            placer.place([.mark(name: "m0", sample: 100), .mark(name: "zz", sample: 10)], chunkStart: 1000, count: 10, trimmed: 0)
                == [.progress(job: 2, position: 1010)])
        #expect(placer.finish(at: 1500) == [.mark(job: 2, name: "three", position: 1500)])
    }

    @Test func `words map to the text content, markup and entities left out`() throws {
        // As libespeak-ng reports them: 1-based scalar positions in the segment's markup.
        let ssml = "<speak>Fish &amp; <prosody rate=\"slow\">chïps</prosody></speak>"
        let text = "Fish & chïps"
        let segment = try #require(Segmenter().segments(of: ssml).first)
        let markup = Array(try #require(segment.markup).unicodeScalars)
        func position(of word: String) -> Int {
            let scalars = Array(word.unicodeScalars)
            for start in 0...(markup.count - scalars.count) where Array(markup[start..<start + scalars.count]) == scalars {
                return start + 1
            }
            return -1
        }
        var placer = MarkPlacer(job: 1, segment: segment, base: 0, placesWords: true)
        let fish = position(of: "Fish")
        let ampersand = position(of: "&amp;") + 4  // the engine puts an entity word at its `;`
        let chips = position(of: "chïps")
        let events = placer.place(
            [
                .word(textPosition: fish, length: 4, sample: 0), .word(textPosition: ampersand, length: 1, sample: 100),
                .word(textPosition: chips, length: 5, sample: 200), .word(textPosition: chips, length: 5, sample: 300),
                .word(textPosition: chips + 6, length: 0, sample: 400),
            ], chunkStart: 0, count: 500, trimmed: 0)
        let words = events.compactMap { event -> String? in
            guard case .word(_, let range, _) = event else { return nil }
            let scalars = Array(text.unicodeScalars)[range]
            return String(String.UnicodeScalarView(scalars))
        }
        // Repeated (CJK clauses report one word many times) and empty words are dropped.
        #expect(words == ["Fish", "&", "chïps"])
        #expect(events.last == .progress(job: 1, position: 500))
    }

    @Test func `a word made of markup alone has no text and is not reported`() throws {
        let segment = try #require(Segmenter().segments(of: "<speak>Hi <break time=\"10ms\"/>you</speak>").first)
        var placer = MarkPlacer(job: 1, segment: segment, base: 0, placesWords: true)
        #expect(
            placer.place([.word(textPosition: 12, length: 5, sample: 0)], chunkStart: 0, count: 1, trimmed: 0)
                == [.progress(job: 1, position: 1)])
    }

    @Test func `text runs follow the text content across segments`() {
        let segments = Segmenter().segments(of: "<speak>One. <mark name=\"__spd_1\"/>Two &lt; three.</speak>")
        #expect(segments.count == 2)
        #expect(segments[0].textRuns == [SpeechSegment.TextRun(markupOffset: 7, markupLength: 5, textOffset: 0)])
        #expect(segments[1].textRuns == [SpeechSegment.TextRun(markupOffset: 7, markupLength: 15, textOffset: 5)])
    }
}
