import Testing
import Voices

@Test func `phrases one a line, comments and blank lines skipped, a tab names the recording`() {
    let (list, problems) = PhraseList.parse(
        """
        # Greetings
        hello

          Good morning, Anna!  \r
        o'clock\ttakes/o clock 2.wav
        こんにちは
        Grüß Gott
        """)
    #expect(problems.isEmpty)
    #expect(
        list.entries.map { "\($0.lineNumber) \($0.phrase)|\($0.recording ?? "-")|\($0.slug)" } == [
            "2 hello|-|hello",
            "4 Good morning, Anna!|-|good-morning-anna",
            "5 o'clock|takes/o clock 2.wav|o-clock",
            "6 こんにちは|-|こんにちは",
            "7 Grüß Gott|-|grüß-gott",
        ])
}

@Test func `phrases with the same slug are numbered, the same phrase twice is refused`() {
    let (list, problems) = PhraseList.parse("good morning\ngood, morning\nGood  Morning\n!!!\ngood-morning\n")
    #expect(list.entries.map(\.slug) == ["good-morning", "good-morning-2", "good-morning-3"])
    #expect(
        problems.map(\.description) == [
            "line 3: \"Good  Morning\" is the same phrase as line 1's",
            "line 4: \"!!!\" has no word to match",
        ])
}

@Test func `bad lines are each reported with their line number`() {
    let (list, problems) = PhraseList.parse("fine\nbell\u{7}\nno file\t \n\tnothing.wav\nfine\nlast\ta.wav\tb.wav")
    #expect(list.entries.map(\.phrase) == ["fine"])
    #expect(
        problems.map(\.description) == [
            "line 2: it holds a control character",
            "line 3: a tab but no recording after it",
            "line 4: a recording but no phrase before the tab",
            "line 5: \"fine\" is the same phrase as line 1's",
            "line 6: more than one tab; write the phrase, one tab, then its recording",
        ])
}

@Test func `a long phrase's slug keeps its start and fits a file name`() {
    let phrase = String(repeating: "word ", count: 40)
    let (list, _) = PhraseList.parse(phrase)
    let slug = list.entries[0].slug
    #expect(slug.utf8.count <= 80 && slug.hasPrefix("word-word-") && !slug.hasSuffix("-"))
}

@Test func `the match key is the same exactly for phrases the book treats as one`() {
    #expect(PhraseBook.matchKey(of: "Good  morning") == PhraseBook.matchKey(of: "good morning"))
    #expect(PhraseBook.matchKey(of: "hello!") == PhraseBook.matchKey(of: "Hello"))
    #expect(PhraseBook.matchKey(of: "good, morning") != PhraseBook.matchKey(of: "good morning"))
    #expect(PhraseBook.matchKey(of: "...") == nil)
    #expect(PhraseBook([("hello!", "a"), ("Hello", "b")]).count == 1)
}
