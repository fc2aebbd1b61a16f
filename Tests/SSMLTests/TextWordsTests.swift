import SSML
import Testing

/// The text's words, as a reader splits it: whole between spaces, punctuation around left out.
@Suite struct TextWordsTests {
    private func words(_ text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        return TextWords.units(of: text).map { unit in
            var word = String.UnicodeScalarView()
            word.append(contentsOf: scalars[unit.range])
            return String(word)
        }
    }

    @Test(arguments: [
        ("It's currently 9:15 AM.", ["It's", "currently", "9:15", "AM"]),
        ("A temperature of 72°F.", ["A", "temperature", "of", "72°F"]),
        ("A meeting with S.H.I.E.L.D. at 2 PM.", ["A", "meeting", "with", "S.H.I.E.L.D", "at", "2", "PM"]),
        ("It appears there's an urgent e-mail.", ["It", "appears", "there's", "an", "urgent", "e-mail"]),
        ("See https://example.org/a, or C++.", ["See", "https://example.org/a", "or", "C++"]),
        ("A naïve café.", ["A", "naïve", "café"]),
        ("Thumbs 👍🏽 and 👩‍👩‍👧‍👦 family.", ["Thumbs", "👍🏽", "and", "👩‍👩‍👧‍👦", "family"]),
        ("It costs $3.50, or 1,234.5 at 12% on 2026-11-28.", ["It", "costs", "$3.50", "or", "1,234.5", "at", "12%", "on", "2026-11-28"]),
        ("Dr. Who at 7 a.m. said “hello” (twice) — ‘yes’!", ["Dr", "Who", "at", "7", "a.m", "said", "hello", "twice", "yes"]),
        ("¿Qué tal? «Très bien», dit-il.", ["Qué", "tal", "Très", "bien", "dit-il"]),
        ("#tags & @names ... -- !", ["#tags", "&", "@names"]),
        ("", []),
        ("  \t\n ", []),
    ])
    func `a word is a run between spaces less the punctuation around it`(text: String, expected: [String]) {
        #expect(words(text) == expected)
        #expect(TextWords.units(of: text).allSatisfy { !$0.isUnspaced })
    }

    @Test func `scripts written without spaces are runs between their punctuation, other scripts inside them`() {
        let text = "「それでは発表します。」IBMの本社、3個! สวัสดีครับ 你好，世界 OK"
        #expect(words(text) == ["それでは発表します", "IBMの本社", "3個", "สวัสดีครับ", "你好", "世界", "OK"])
        #expect(TextWords.units(of: text).map(\.isUnspaced) == [true, true, true, true, true, true, false])
    }

    @Test func `ranges count Unicode scalars, as the segmenter's text runs do`() {
        // é as e + combining acute: one character, two scalars.
        let text = "cafe\u{301} ok"
        #expect(TextWords.units(of: text).map(\.range) == [0..<5, 6..<8])
        #expect(TextWords.tokens(of: "  a, —  b.c ") == [2..<4, 5..<6, 8..<11])
    }
}
