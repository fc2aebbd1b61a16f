import Testing
import Voices

/// The phrases found in `text`, as (text matched, clip).
private func found(_ book: PhraseBook, _ text: String) -> [String] {
    book.matches(in: text).map { "\(text[$0.range])=\($0.clip)" }
}

private let book = PhraseBook([
    ("hello", "hello.wav"),
    ("good morning", "good-morning.wav"),
    ("good", "good.wav"),
    ("good morning everyone", "all.wav"),
    ("o'clock", "oclock.wav"),
    ("U.S.A.", "usa.wav"),
    ("café", "cafe.wav"),
    ("こんにちは", "konnichiwa.wav"),
    ("世界", "sekai.wav"),
])

@Test func `the longest phrase wins, matched at word boundaries and without regard to case`() {
    #expect(found(book, "Good morning everyone!") == ["Good morning everyone=all.wav"])
    #expect(found(book, "Good morning, Anna.") == ["Good morning=good-morning.wav"])
    #expect(found(book, "good, morning") == ["good=good.wav"])
    #expect(found(book, "HELLO hello Hello") == ["HELLO=hello.wav", "hello=hello.wav", "Hello=hello.wav"])
    #expect(found(book, "Othello, hellos and shello") == [])
    #expect(found(book, "goodmorning") == [])
}

@Test func `white space between words counts as one space, other separators must be the phrase's own`() {
    #expect(found(book, "good \n\t morning") == ["good \n\t morning=good-morning.wav"])
    #expect(found(book, "good-morning") == ["good=good.wav"])
    #expect(found(book, "born in the U.S.A. in") == ["U.S.A=usa.wav"])
    #expect(found(book, "U S A") == [])
    #expect(found(book, "at five o'clock sharp") == ["o'clock=oclock.wav"])
    #expect(found(book, "'hello'") == ["hello=hello.wav"])
}

@Test func `composed and decomposed forms of a word are the same word`() {
    #expect(found(book, "un cafe\u{301} noir") == ["cafe\u{301}=cafe.wav"])
    #expect(found(book, "CAFÉ") == ["CAFÉ=cafe.wav"])
    #expect(found(book, "cafe") == [])
}

@Test func `scripts written without spaces match phrases inside longer text`() {
    #expect(found(book, "みなさん、こんにちは世界") == ["こんにちは=konnichiwa.wav", "世界=sekai.wav"])
    #expect(found(book, "こんにち") == [])
}

@Test func `a phrase without a word is left out and a repeated phrase keeps its first clip`() {
    let odd = PhraseBook([("...", "dots.wav"), ("  ", "space.wav"), ("Hi", "hi1.wav"), ("hi", "hi2.wav")])
    #expect(odd.count == 1)
    #expect(found(odd, "hi ... ") == ["hi=hi1.wav"])
    #expect(PhraseBook([]).matches(in: "anything").isEmpty)
}

@Test func `matching stays linear on long texts`() {
    let text = String(repeating: "good morning everyone, hello. ", count: 20_000)
    let matches = book.matches(in: text)
    #expect(matches.count == 40_000)
    #expect(matches.first.map { String(text[$0.range]) } == "good morning everyone")
}
