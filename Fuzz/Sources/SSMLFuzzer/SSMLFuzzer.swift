import SSML

/// Reads arbitrary text as SSML and checks that every mark survives segmentation, once, in order.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let tokens = SSMLReader.tokens(of: text)
    var marks: [String] = []
    for case .startTag(let name, let attributes, _) in tokens where name.lowercased() == "mark" {
        if let markName = attributes.first(where: { $0.name == "name" })?.value { marks.append(markName) }
    }
    let options: [Segmenter] = [
        Segmenter(), Segmenter(spellsText: true), Segmenter(spellsText: true, capitals: .spell),
        Segmenter(spellsText: true, capitals: .icon("capital"), engineVoiceNames: ["german": "gmw/de"]),
    ]
    // The first byte chooses the options: one segmentation per run instead of four, four times the runs.
    for segmenter in [options[Int(size > 0 ? data[0] % 4 : 0)]] {
        let segments = segmenter.segments(of: text)
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
        }
    }
    return 0
}
