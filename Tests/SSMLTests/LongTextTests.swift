import SSML
import Testing

// Long texts are read a piece at a time (issue 32): the tokens and segments of a message are made
// as they are asked for, and long text is cut where a sentence surely ends, so that the first
// segment of a megabyte is made having read little more than its own text.

/// English prose of `count` sentences, each different (numbered), some with abbreviations.
private func prose(sentences count: Int) -> String {
    (0..<count).map { "Sentence number \($0) tells of Dr. Smith and the weather, which was fine all day. " }.joined()
}

@Test func `the first segment of a megabyte is made having read a few hundred bytes of it`() throws {
    let text = "<speak>" + prose(sentences: 13_000) + "</speak>"
    #expect(text.utf8.count > 1_000_000)
    var segments = Segmenter().lazySegments(of: text)
    let next = segments.next()
    let first = try #require(next)
    // A long document's first piece is cut at the first sentence end after 256 bytes.
    #expect(segments.bytesRead < 512, "read \(segments.bytesRead) bytes for the first segment")
    let markup = try #require(first.markup)
    #expect(markup.hasPrefix("<speak>Sentence number 0 tells"))
    #expect(markup.hasSuffix("fine all day. </speak>"), "cut after a full stop: \(markup.suffix(40))")
    #expect(first.pausesAtEnd)
    #expect(first.textGoesOn, "the next segment is more of the text: it need not be made first")
    // The rest, in order, reads to the end; every sentence is said once.
    var count = 1
    var said = SSMLReader.textContent(of: markup)
    var last = first
    while let segment = segments.next() {
        #expect(last.textGoesOn, "a segment followed by more text says so")
        count += 1
        said += SSMLReader.textContent(of: segment.markup ?? "")
        last = segment
    }
    #expect(!last.textGoesOn)
    #expect(count > 500 && count < 1_100, "\(count) segments")
    #expect(said == prose(sentences: 13_000))
}

@Test func `short messages keep one segment whatever their sentences`() {
    let text = "<speak>" + prose(sentences: 8) + "</speak>"
    #expect(text.utf8.count < 1_024)
    #expect(Segmenter().segments(of: text).count == 1)
}

@Test(arguments: [
    "Dr. Smith", "Mr. Jones", "e.g. This", "U.S. Army", "No. 5", "J. R. R. Tolkien", "etc. and", "fig. 3",
    "St. Paul", "the word. and", "Prof. Oak",
])
func `a full stop after an abbreviation or before a lowercase word does not cut the text`(words: String) {
    // The abbreviation lands after the first kilobyte, where a cut may first come.
    let filler = String(repeating: "word ", count: 220)
    let text = "<speak>" + filler + words + " goes on here</speak>"
    let segments = Segmenter().segments(of: text)
    #expect(segments.count == 1, "\(segments.compactMap(\.markup).map { $0.suffix(30) })")
}

@Test(arguments: [
    ("ended here. The next", "ended here. "), ("asked why? Then", "asked why? "), ("in 1999. Then", "in 1999. "),
    ("shouted! \u{201C}Go", "shouted! "), ("quietly.\n\nAnother", "quietly.\n\n"),
])
func `a sentence end after the first kilobyte cuts the text there`(words: String, firstEnds: String) throws {
    let filler = String(repeating: "word ", count: 220)
    let segments = Segmenter().segments(of: "<speak>" + filler + words + " goes on</speak>")
    try #require(segments.count == 2, "\(segments.compactMap(\.markup).map { $0.suffix(30) })")
    #expect(segments[0].markup?.hasSuffix(firstEnds + "</speak>") == true, "\(segments[0].markup?.suffix(30) ?? "")")
    #expect(segments[1].markup?.hasPrefix("<speak>" + words.dropFirst(firstEnds.count)) == true)
}

@Test func `Japanese is cut after 。！？, never before the bracket that closes a quotation`() throws {
    let sentence = "今日は良い天気ですね。"
    let filler = String(repeating: sentence, count: 40)  // 1,320 bytes
    let quoted = "「本当ですか。」と彼は言った。"
    let segments = Segmenter().segments(of: "<speak>" + quoted + filler + quoted + "終わり</speak>")
    let markups = segments.compactMap(\.markup)
    try #require(markups.count == 2, "\(markups.map { $0.suffix(20) })")
    // The first kilobyte ends inside the filler: the cut is at the first 。 after it.
    #expect(markups[0].hasSuffix("ですね。</speak>"))
    #expect(markups[1].hasSuffix(quoted + "終わり</speak>"), "the quotation stays whole: \(markups[1])")
}

@Test func `text with no sentence end is cut at a space after 64 KB, or anywhere after 128 KB`() {
    let spaced = "<speak>" + String(repeating: "word ", count: 30_000) + "</speak>"
    let segments = SSMLReader.tokens(of: spaced).count
    #expect(segments == 3, "one text token: the cutting is only for the segmenter")
    var tokens = SSMLTokens(spaced, textPieces: TextPieces())
    var pieces: [Int] = []
    while let token = tokens.next() {
        if case .text(let text) = token { pieces.append(text.utf8.count) }
    }
    // At the first space 64 KiB in: "word " is 5 bytes.
    #expect(pieces == [65_540, 65_540, 18_920], "\(pieces)")
    let unspaced = "<speak>" + String(repeating: "あ", count: 100_000) + "</speak>"
    var wide = SSMLTokens(unspaced, textPieces: TextPieces())
    var widePieces: [Int] = []
    while let token = wide.next() {
        if case .text(let text) = token {
            widePieces.append(text.utf8.count)
            #expect(!wide.endedAtSentence)
        }
    }
    #expect(widePieces == [131_073, 131_073, 37_854], "\(widePieces)")
}

@Test(arguments: ["sub alias=\"x\"", "say-as interpret-as=\"characters\"", "audio src=\"a.wav\""])
func `a long text is not cut inside what must be read whole`(element: String) {
    let name = String(element.prefix { $0 != " " })
    let inner = String(repeating: "Some words here. ", count: 100)
    let segments = Segmenter().segments(of: "<speak><\(element)>\(inner)</\(name)> After.</speak>")
    let cutInside = segments.dropLast().contains { $0.markup?.contains("Some words here. </") == true && $0.sound == nil && name != "audio" }
    #expect(!cutInside)
    #expect(segments.count <= 2, "\(segments.map { ($0.markup?.suffix(30) ?? "", $0.sound ?? "") })")
}

@Test func `a cut inside prosody closes it and opens it again in the next segment`() throws {
    let inner = String(repeating: "Some words here. ", count: 100)
    let segments = Segmenter().segments(of: "<speak><prosody rate=\"fast\">\(inner)</prosody></speak>")
    try #require(segments.count == 2)
    #expect(segments[0].markup?.hasSuffix("here. </prosody></speak>") == true)
    #expect(segments[1].markup?.hasPrefix("<speak><prosody rate=\"fast\">Some words") == true)
    #expect(segments[1].markup?.hasSuffix("here. </prosody></speak>") == true)
}

@Test(arguments: ["\u{301}", "\u{200D}", "\u{FE0F}", "\u{1F3FD}"])
func `text is never cut where the next scalar extends the character before it`(extender: String) throws {
    // A wide full stop ends a sentence; what follows it at once would belong to it.
    let filler = String(repeating: "今日は良い天気ですね", count: 40)
    let segments = Segmenter().segments(of: "<speak>" + filler + "。" + extender + "明日も。晴れ</speak>")
    let markups = segments.compactMap(\.markup)
    try #require(markups.count == 2, "\(markups.map { $0.suffix(12) })")
    #expect(markups[0].hasSuffix("。" + extender + "明日も。</speak>"), "\(markups[0].suffix(12))")
}
