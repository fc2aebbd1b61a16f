import Testing

@testable import Reading

/// `text`'s lines at `columns`, as strings.
private func wrapped(_ text: String, _ columns: Int) -> [String] {
    ReadingScreen.wrapped(text, columns: columns).map { String(text[$0]) }
}

@Test func `lines break at spaces, beside wide characters, and inside a word only when it must`() {
    #expect(
        wrapped("The quick brown fox jumps over the lazy dog.", 10) == [
            "The quick", "brown fox", "jumps over", "the lazy", "dog.",
        ])
    #expect(
        wrapped("Antidisestablishmentarianism is long.", 10) == ["Antidisest", "ablishment", "arianism", "is long."])
    #expect(wrapped("今日は晴れです。明日は雨でしょうか。", 10) == ["今日は晴れ", "です。明日", "は雨でしょ", "うか。"])
    #expect(wrapped("Short.", 80) == ["Short."])
    #expect(wrapped("", 80) == [])
}

@Test func `the word heard is in reverse video, on each line it spans`() {
    let sentence = "The quick brown fox jumps."
    let word = sentence.firstRange(of: "brown")!
    #expect(
        ReadingScreen.lines(sentence: sentence, number: 2, of: 7, word: word, columns: 12)
            == ["sentence 2 of 7", "The quick", "\u{1B}[7mbrown\u{1B}[27m fox", "jumps."])
    #expect(
        ReadingScreen.lines(sentence: sentence, number: 1, of: 1, word: nil, paused: true, columns: 80)
            == ["sentence 1 of 1 (paused)", "The quick brown fox jumps."])
    let long = "abcdefghijklmnop"
    #expect(
        ReadingScreen.lines(sentence: long, number: 1, of: 1, word: long.startIndex..<long.endIndex, columns: 10)
            == ["sentence 1 of 1", "\u{1B}[7mabcdefghij\u{1B}[27m", "\u{1B}[7mklmnop\u{1B}[27m"])
}

@Test func `a sentence longer than the screen is shown a page at a time, the page with the word heard`() {
    let sentence = "one two three four five six seven"
    let six = sentence.firstRange(of: "six")!
    #expect(
        ReadingScreen.lines(sentence: sentence, number: 1, of: 1, word: nil, columns: 10, rows: 3)
            == ["sentence 1 of 1", "one two", "three four"])
    #expect(
        ReadingScreen.lines(sentence: sentence, number: 1, of: 1, word: six, columns: 10, rows: 3)
            == ["sentence 1 of 1", "five six".replacing("six", with: "\u{1B}[7msix\u{1B}[27m"), "seven"])
}

@Test func `control characters in the text cannot drive the terminal`() {
    #expect(
        ReadingScreen.lines(sentence: "A \u{1B}[2J trap\u{07}.", number: 1, of: 1, word: nil, columns: 80)
            == ["sentence 1 of 1", "A \u{FFFD}[2J trap\u{FFFD}."])
}
