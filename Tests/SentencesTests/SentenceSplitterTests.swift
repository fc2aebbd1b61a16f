import Sentences
import Testing

/// The sentences of `text` in `language`, as strings.
private func sentences(_ text: String, _ language: String) throws -> [String] {
    try SentenceSplitter(language: language).sentences(in: text).map { String(text[$0]) }
}

@Test func `English titles, Latin abbreviations, decimals and initials end no sentence`() throws {
    #expect(
        try sentences(
            "Mr. Smith met Dr. Jones at 3.14 p.m. sharp, e.g. on time. J. R. R. Tolkien wrote it. See Fig. 3 and "
                + "No. 5 on St. Mark's Place. The U.S. Army came. It costs approx. 5 dollars.", "en")
            == [
                "Mr. Smith met Dr. Jones at 3.14 p.m. sharp, e.g. on time.", "J. R. R. Tolkien wrote it.",
                "See Fig. 3 and No. 5 on St. Mark's Place.", "The U.S. Army came.", "It costs approx. 5 dollars.",
            ])
}

@Test func `English sentences end after quotation marks, ellipses, question marks and words ICU lists`() throws {
    #expect(
        try sentences(
            #"He said "Stop." Then he left. Wait... Then it ended. Wait... what? Where to? Let it go. I said no. "#
                + "Is it? It is.", "en")
            == [
                #"He said "Stop.""#, "Then he left.", "Wait...", "Then it ended.", "Wait... what?", "Where to?",
                "Let it go.", "I said no.", "Is it?", "It is.",
            ])
}

@Test func `German abbreviations and ordinals end no sentence, usw. at the end of one does`() throws {
    #expect(
        try sentences(
            "Das ist z. B. ein Test. Dr. Müller kam am 3. Oktober an. Äpfel, Birnen usw. Danach ging er. "
                + "Das war der 2. Weltkrieg. Siehe S. 5 bzw. Nr. 7. Es ist ca. 5 Uhr. Das ist ein Test. Er kam.",
            "de")
            == [
                "Das ist z. B. ein Test.", "Dr. Müller kam am 3. Oktober an.", "Äpfel, Birnen usw.",
                "Danach ging er.", "Das war der 2. Weltkrieg.", "Siehe S. 5 bzw. Nr. 7.", "Es ist ca. 5 Uhr.",
                "Das ist ein Test.", "Er kam.",
            ])
}

@Test func `German quotation marks stay with their sentence`() throws {
    #expect(
        try sentences("Er fragte: „Kommst du?“ Sie sagte: »Nein.« Dann ging sie.", "de")
            == ["Er fragte: „Kommst du?“", "Sie sagte: »Nein.«", "Dann ging sie."])
}

@Test func `Japanese sentences end at full-width stops, quoted speech goes on with its particle`() throws {
    #expect(
        try sentences("今日は晴れです。明日は雨でしょうか？「はい。」と彼は言った。すごい！本当に。「行こう。」", "ja")
            == ["今日は晴れです。", "明日は雨でしょうか？", "「はい。」と彼は言った。", "すごい！", "本当に。", "「行こう。」"])
}

@Test func `Chinese sentences end at full-width stops, a speaker's tag stays with the quotation`() throws {
    #expect(
        try sentences("今天天气很好。你去吗？“我不去。”他说。好！", "zh")
            == ["今天天气很好。", "你去吗？", "“我不去。”他说。", "好！"])
}

@Test func `French guillemets and abbreviations`() throws {
    #expect(
        try sentences(
            "M. Dupont est là. Il est 3 h. Voir p. 5 et cf. la note. « Non. » Il part. Mme Durand arrive.", "fr")
            == [
                "M. Dupont est là.", "Il est 3 h.", "Voir p. 5 et cf. la note.", "« Non. »", "Il part.",
                "Mme Durand arrive.",
            ])
}

@Test func `a blank line ends a sentence, a single line break does not`() throws {
    #expect(
        try sentences("A title\n\nThe first line\ngoes on here. And\r\nends.\n \nLast words\n", "en")
            == ["A title", "The first line\ngoes on here.", "And\r\nends.", "Last words"])
}

@Test func `a regional tag and an unknown language use the language's rules, then the root's`() throws {
    #expect(try sentences("Dr. Who. Yes.", "en-GB") == ["Dr. Who.", "Yes."])
    #expect(
        try sentences("Am 3. Oktober. Ja. Seit dem 1. Mai. Nummer 7. Dann.", "de_AT")
            == ["Am 3. Oktober.", "Ja.", "Seit dem 1. Mai.", "Nummer 7.", "Dann."])
    #expect(try sentences("Hello. World.", "xx") == ["Hello.", "World."])
    #expect(SentenceSplitter(language: "de-AT").language == "de")
}

@Test func `an empty or blank text has no sentences`() throws {
    #expect(try sentences("", "en") == [])
    #expect(try sentences(" \n\n\t", "en") == [])
}
