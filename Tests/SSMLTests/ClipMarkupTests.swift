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
