import SSML

/// Reads arbitrary text as SSML and checks that every mark survives segmentation, once, in order,
/// and that each segment's text runs read back, in its markup, as the text content they name
/// (what word positions are mapped through), with language switching and a reader's rewritten
/// words as well.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let tokens = SSMLReader.tokens(of: text)
    var marks: [String] = []
    for case .startTag(let name, let attributes, _) in tokens where name.lowercased() == "mark" {
        if let markName = attributes.first(where: { $0.name == "name" })?.value { marks.append(markName) }
    }
    var content: [Unicode.Scalar] = []
    for case .text(let piece) in tokens { content += piece.unicodeScalars }
    let switching = LanguageSwitching(
        messageLanguage: "en", voiceScripts: [.latin], availableLanguages: ["en", "ja", "zh", "ru", "el", "ko"])
    let options: [Segmenter] = [
        Segmenter(), Segmenter(spellsText: true), Segmenter(spellsText: true, capitals: .spell),
        Segmenter(spellsText: true, capitals: .icon("capital"), engineVoiceNames: ["german": "gmw/de"]),
        Segmenter(languageSwitching: switching),
        Segmenter(capitals: .icon("capital"), languageSwitching: switching),
    ]
    // The first byte chooses the options: one segmentation per run instead of six, six times the runs.
    for segmenter in [options[Int(size > 0 ? data[0] % 6 : 0)]] {
        let segments = segmenter.segments(of: text, reader: HanReader())
        for segment in segments {
            precondition(segment.language.map(switching.isAvailable) ?? true, "switched to \(segment.language!)")
        }
        let reported = segments.flatMap { $0.leadingMarks + $0.inlineMarks }
        precondition(reported == marks, "marks lost or reordered: \(marks) became \(reported)")
        for segment in segments {
            guard let markup = segment.markup else { continue }
            // What goes to the engine must read back with exactly the inline marks we put in.
            var inline: [String] = []
            for case .startTag("mark", let attributes, _) in SSMLReader.tokens(of: markup) {
                inline.append(attributes.first { $0.name == "name" }?.value ?? "")
            }
            precondition(
                inline == segment.inlineMarks.indices.map(SpeechSegment.inlineMarkName),
                "engine markup \(markup) has marks \(inline)")
            let scalars = Array(markup.unicodeScalars)
            for run in segment.textRuns {
                precondition(run.markupOffset + run.markupLength <= scalars.count, "run \(run) past \(markup)")
                if let length = run.textLength {
                    // A reader's word: its markup is what is spoken, its text what it stands for.
                    precondition(length > 0 && run.textOffset + length <= content.count, "word \(run) past the text")
                    continue
                }
                let escaped = String(String.UnicodeScalarView(scalars[run.markupOffset..<run.markupOffset + run.markupLength]))
                var decoded: [Unicode.Scalar] = []
                for case .text(let piece) in SSMLReader.tokens(of: escaped) { decoded += piece.unicodeScalars }
                precondition(
                    run.textOffset + decoded.count <= content.count
                        && Array(content[run.textOffset..<run.textOffset + decoded.count]) == decoded,
                    "run \(run) of \(markup) is not the text at \(run.textOffset)")
            }
        }
    }
    return 0
}

/// Reads each Han character as a word of its own, spoken "kan", with kana left as written; stray
/// words (past the end, overlapping, empty) test that the segmenter drops what breaks the contract.
struct HanReader: TextReading {
    var languages: Set<String> { ["ja", "zh"] }

    func words(of text: String, language: String) -> [ReadingWord] {
        var words: [ReadingWord] = []
        for (index, scalar) in text.unicodeScalars.enumerated() where Script.of(scalar) == .han {
            words.append(ReadingWord(source: index..<index + 1, spoken: index % 3 == 0 ? "kan&<" : "kan"))
            if index % 5 == 4 { words.append(ReadingWord(source: index..<index + 2, spoken: "x")) }
            if index % 7 == 6 { words.append(ReadingWord(source: index + 1..<index + 1, spoken: "")) }
        }
        return words
    }
}
