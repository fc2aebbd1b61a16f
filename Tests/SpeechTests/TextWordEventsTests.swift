import Playback
import SSML
import Speech
import TestSupport
import Testing

/// Word events are the text's words, whatever libespeak-ng makes of them: one event for each
/// word of the text, its range exactly that word, in order, none twice, none missing.
@Suite(.serialized)
struct TextWordEventsTests {
    /// The words reported for `text` (a plain sentence), with their positions.
    private func words(_ text: String, speech: InProcessSpeech) throws -> [(word: String, position: UInt64)] {
        let events = try speech.speak("<speak>\(SSMLText.escape(text))</speak>", reportsWords: true)
        let scalars = Array(text.unicodeScalars)
        return events.compactMap { event in
            guard case .word(_, let range, let position) = event else { return nil }
            return (String(String.UnicodeScalarView(scalars[range])), position)
        }
    }

    /// Sentences with a word the engine splits, spells, reads as a unit or skips, and the words a
    /// reader sees in each.
    static let hardWords: [(text: String, words: [String])] = [
        ("It's currently 9:15 AM.", ["It's", "currently", "9:15", "AM"]),
        ("The temperature is 72°F today.", ["The", "temperature", "is", "72°F", "today"]),
        ("A meeting with S.H.I.E.L.D. at 2 PM.", ["A", "meeting", "with", "S.H.I.E.L.D", "at", "2", "PM"]),
        ("It appears there's an urgent e-mail.", ["It", "appears", "there's", "an", "urgent", "e-mail"]),
        ("Visit https://example.org/a with C++ code.", ["Visit", "https://example.org/a", "with", "C++", "code"]),
        ("A naïve idea 👍🏽 from the 👩‍💻 team.", ["A", "naïve", "idea", "👍🏽", "from", "the", "👩‍💻", "team"]),
        ("We sold 1,234.5 tons on 2026-11-28 for $3.50 at 12% off.", [
            "We", "sold", "1,234.5", "tons", "on", "2026-11-28", "for", "$3.50", "at", "12%", "off",
        ]),
        ("Dr. Smith left at 7 a.m. and said “hello” (twice).", [
            "Dr", "Smith", "left", "at", "7", "a.m", "and", "said", "hello", "twice",
        ]),
        ("Run `make test` — then «relax».", ["Run", "make", "test", "then", "relax"]),
    ]

    @Test func `every word of the text is one event, exactly its range, in order`() async throws {
        let speech = try await InProcessSpeech()
        for (text, expected) in Self.hardWords {
            let heard = try words(text, speech: speech)
            #expect(heard.map(\.word) == expected, "\(text)")
            let positions = heard.map(\.position)
            #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 <= $1 }, "\(text): \(positions)")
        }
    }

    @Test func `the follow-along demo is revealed word for word, spread over the speech`() async throws {
        let text = """
            Good morning, sir. It's currently 9:15 AM. The weather in New York is sunny with a temperature of \
            72°F. Your schedule for today includes a Stark Industries board meeting at 11 AM and a meeting with \
            S.H.I.E.L.D. at 2 PM. You have 3 unread messages from Pepper Potts. Also, it appears there's an \
            urgent communication from Nick Fury.
            """
        let speech = try await InProcessSpeech()
        let events = try speech.speak("<speak>\(SSMLText.escape(text))</speak>", reportsWords: true)
        let scalars = Array(text.unicodeScalars)
        var heard: [(word: String, position: UInt64)] = []
        for case .word(_, let range, let position) in events {
            heard.append((String(String.UnicodeScalarView(scalars[range])), position))
        }
        // The tokens between spaces, less the punctuation around them: every one, once, in order.
        let tokens = text.split(separator: " ").map { $0.trimmingPrefix { $0.isPunctuation } }
            .map { String($0.reversed().trimmingPrefix { $0.isPunctuation }.reversed()) }
        #expect(heard.map(\.word) == tokens)
        #expect(heard.map(\.word).contains("S.H.I.E.L.D") && heard.map(\.word).contains("72°F"))
        guard case .audioStart(_, let start) = events.first, case .end(_, let end) = events.last,
            let last = heard.last?.position
        else {
            Issue.record("unexpected events \(events)")
            return
        }
        let positions = heard.map(\.position)
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 <= $1 })
        // Spread over the speech: the last word within its last fifth.
        #expect(Double(last - start) > 0.8 * Double(end - start), "last word at \(last - start) of \(end - start)")
    }
}
