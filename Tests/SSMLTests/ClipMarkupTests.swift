import SSML
import Testing

/// Finds each word of `words` in a text, as the clip `<word>.wav`.
private func finder(_ words: [String]) -> @Sendable (String) -> [ClipMarkup.Phrase] {
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
@Sendable private func greetings(_ text: String) -> [ClipMarkup.Phrase] {
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

@Test func `a clip's words are counted where a script spaces them, not elsewhere`() {
    #expect(ClipMarkup.words(in: "good  morning") == 2)
    #expect(ClipMarkup.words(in: "hello") == 1)
    #expect(ClipMarkup.words(in: "こんにちは") == 0)
    #expect(ClipMarkup.words(in: "你好") == 0)
    #expect(ClipMarkup.words(in: "สวัสดี") == 0)
}

/// The segments a clip voice's segmenter makes, a run of text at a time, and those of the message
/// rewritten whole (which carry no words: its SSML leaves them out).
private func clipSegments(_ ssml: String, keepsOtherText: Bool) -> (lazy: [SpeechSegment], whole: [SpeechSegment]) {
    var segmenter = Segmenter()
    segmenter.clips = ClipPhrases(keepsOtherText: keepsOtherText, find: greetings)
    let rewritten = ClipMarkup.replacingPhrases(in: ssml, keepsOtherText: keepsOtherText, find: greetings)
    return (segmenter.segments(of: ssml), Segmenter().segments(of: rewritten))
}

@Test(arguments: [
    "<speak>Say hello and good morning, then hello again.</speak>",
    "<speak><mark name=\"0\"/>good <mark name=\"5\"/>morning <mark name=\"13\"/>hello<mark name=\"18\"/></speak>",
    "<speak>good morning. <mark name=\"a\"/>Hello there, <prosody rate=\"fast\">hello</prosody>!</speak>",
    "<speak><say-as interpret-as=\"characters\">hello</say-as> <sub alias=\"hi\">hello</sub> good morning</speak>",
    "<speak>A &amp; B: good morning<break time=\"300ms\"/>hello<mark name=\"end\"/></speak>",
])
func `a clip voice's segments are those of its message rewritten whole, each clip with its phrase's words`(
    ssml: String
) {
    for keepsOtherText in [true, false] {
        let (lazy, whole) = clipSegments(ssml, keepsOtherText: keepsOtherText)
        #expect(lazy.map { var segment = $0; segment.soundWords = nil; return segment } == whole)
        let words = lazy.compactMap { segment in segment.sound.map { "\($0) \(segment.soundWords ?? -1)" } }
        #expect(words == lazy.compactMap(\.sound).map { "\($0) \($0.hasSuffix("gm.wav") ? 2 : 1)" })
        #expect(!words.isEmpty)
    }
}

@Test func `a long message on a clip voice is searched a sentence ahead of its segments, every phrase found`() {
    // 1.3 MB: sentences of text, and the same with a mark after each (as speech-dispatcher puts them).
    let sentence = "Then good morning to you all, and hello again. "
    let count = 28_000
    let plain = "<speak>" + String(repeating: sentence, count: count) + "</speak>"
    let marked = "<speak>" + (0..<count).map { "\(sentence)<mark name=\"\($0)\"/>" }.joined() + "</speak>"
    for (ssml, marks) in [(plain, 0), (marked, count)] {
        var segmenter = Segmenter()
        segmenter.clips = ClipPhrases(keepsOtherText: true, find: greetings)
        var segments = segmenter.lazySegments(of: ssml)
        let first = segments.next()
        #expect(first?.markup == "<speak>Then </speak>")
        #expect(segments.bytesRead < 8192, "read \(segments.bytesRead) of \(ssml.utf8.count) bytes for the first segment")
        var sounds: [String] = []
        var reported: [String] = []
        while let segment = segments.next() {
            if let sound = segment.sound { sounds.append(sound) }
            reported += segment.leadingMarks + segment.inlineMarks
        }
        #expect(sounds.count == 2 * count)
        #expect(Set(sounds) == ["/clips/gm.wav", "/clips/hello.wav"])
        #expect(reported == (0..<marks).map(String.init))
    }
}
