import SSML
import Testing

/// Finds each word of `words` in a text, as the clip `<word>.wav`.
private func finder(_ words: [String]) -> (String) -> [ClipMarkup.Phrase] {
    { text in
        var found: [ClipMarkup.Phrase] = []
        var start = text.startIndex
        while start < text.endIndex {
            var best: (Range<String.Index>, String)?
            for word in words {
                if let range = text[start...].firstRange(of: word),
                    best.map({ range.lowerBound < $0.0.lowerBound }) ?? true
                {
                    best = (range, "/clips/\(word).wav")
                }
            }
            guard let (range, clip) = best else { break }
            found.append((range, clip))
            start = range.upperBound
        }
        return found
    }
}

@Test func `phrases become audio elements whose content is the phrase, the rest stays as it was`() {
    let result = ClipMarkup.replacingPhrases(
        in: "<speak>Say hello to the world &amp; more</speak>", keepsOtherText: true, find: finder(["hello", "world"]))
    #expect(
        result
            == "<speak>Say <audio src=\"/clips/hello.wav\">hello</audio> to the <audio src=\"/clips/world.wav\">world</audio> &amp; more</speak>"
    )
}

@Test func `marks and markup around phrases are kept, in order`() {
    let result = ClipMarkup.replacingPhrases(
        in: "<speak><mark name=\"a\"/>hello <prosody rate=\"fast\">world</prosody><mark name=\"b\"/>.</speak>",
        keepsOtherText: true, find: finder(["hello", "world"]))
    #expect(
        result
            == "<speak><mark name=\"a\"/><audio src=\"/clips/hello.wav\">hello</audio> <prosody rate=\"fast\"><audio src=\"/clips/world.wav\">world</audio></prosody><mark name=\"b\"/>.</speak>"
    )
    let segments = Segmenter().segments(of: result)
    #expect(segments.flatMap { $0.leadingMarks + $0.inlineMarks } == ["a", "b"])
    #expect(segments.compactMap(\.sound) == ["/clips/hello.wav", "/clips/world.wav"])
}

@Test func `without fallback only the clips and the markup are left`() {
    let result = ClipMarkup.replacingPhrases(
        in: "<speak>Say hello<mark name=\"m\"/> to <say-as interpret-as=\"characters\">hello</say-as></speak>",
        keepsOtherText: false, find: finder(["hello"]))
    #expect(
        result
            == "<speak><audio src=\"/clips/hello.wav\"/><mark name=\"m\"/><say-as interpret-as=\"characters\"></say-as></speak>"
    )
}

@Test func `text read in its own way is not matched`() {
    let result = ClipMarkup.replacingPhrases(
        in:
            "<speak><say-as interpret-as=\"characters\">hello</say-as> <sub alias=\"hi\">hello</sub> <audio src=\"x.wav\">hello</audio> hello</speak>",
        keepsOtherText: true, find: finder(["hello"]))
    #expect(result.ranges(of: "<audio src=\"/clips/hello.wav\">").count == 1)
}

@Test func `clip paths and phrases are escaped, comments and declarations dropped`() {
    let result = ClipMarkup.replacingPhrases(
        in: "<!DOCTYPE speak [<!ENTITY a \"b\">]><speak><!-- note -->a<b</speak>", keepsOtherText: true,
        find: { text in
            guard let range = text.firstRange(of: "a<b") else { return [] }
            return [(range, "/clips/\"q\" & <r>.wav")]
        })
    #expect(result == "<speak><audio src=\"/clips/&quot;q&quot; &amp; &lt;r&gt;.wav\">a&lt;b</audio></speak>")
}

/// Finds "good morning" and "hello" in a text.
private func greetings(_ text: String) -> [ClipMarkup.Phrase] {
    var found: [ClipMarkup.Phrase] = []
    for (phrase, clip) in [("good morning", "/clips/gm.wav"), ("hello", "/clips/hello.wav")] {
        for range in text.ranges(of: phrase) { found.append((range, clip)) }
    }
    return found.sorted { $0.range.lowerBound < $1.range.lowerBound }
}

@Test func `a phrase is found across the marks between its words, which are heard as its clip starts`() {
    let result = ClipMarkup.replacingPhrases(
        in:
            "<speak><mark name=\"0\"/>good <mark name=\"5\"/>morning <mark name=\"13\"/>hello<mark name=\"18\"/></speak>",
        keepsOtherText: true, find: greetings)
    #expect(
        result
            == "<speak><mark name=\"0\"/><mark name=\"5\"/><audio src=\"/clips/gm.wav\">good morning</audio> <mark name=\"13\"/><audio src=\"/clips/hello.wav\">hello</audio><mark name=\"18\"/></speak>"
    )
    let marks = Segmenter().segments(of: result).flatMap { $0.leadingMarks + $0.inlineMarks }
    #expect(marks == ["0", "5", "13", "18"])
}

@Test func `marks in text with no phrase stay exactly where they were`() {
    let ssml = "<speak>good <mark name=\"a\"/>evening, <mark name=\"b\"/>everyone<mark name=\"c\"/></speak>"
    #expect(ClipMarkup.replacingPhrases(in: ssml, keepsOtherText: true, find: greetings) == ssml)
    #expect(
        ClipMarkup.replacingPhrases(in: ssml, keepsOtherText: false, find: greetings)
            == "<speak><mark name=\"a\"/><mark name=\"b\"/><mark name=\"c\"/></speak>")
}
