import Configuration
import FuzzSupport
import SSML
import Voices

/// Reads the input as a clip voice manifest, then (after a line `%%`) a message spoken with it.
/// The manifest must never trap and name only real lines; the phrases found must be in order,
/// apart, and each found again on its own; replacing them by clips must keep every mark, in order;
/// and the segmenter, finding them a run of text at a time in a message cut into pieces, must say
/// what the message rewritten whole says (phrases that hold a sentence's end aside: a long run is
/// ended after one, and a phrase may not go on across it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parts = input.split(separator: "\n%%\n", maxSplits: 1, omittingEmptySubsequences: false)
    let manifestText = String(parts[0])
    let message = parts.count > 1 ? String(parts[1]) : manifestText

    let lineCount = manifestText.split(separator: "\n", omittingEmptySubsequences: false).count
    let (result, issues) = ClipVoiceManifest.parse(manifestText)
    for issue in issues {
        precondition(issue.lineNumber >= 1 && issue.lineNumber <= lineCount, "issue at line \(issue.lineNumber)")
    }
    let clips: [ClipVoiceManifest.Clip]
    switch result {
    case .success(let manifest):
        precondition(!manifest.name.isEmpty && !manifest.primaryLanguages.isEmpty)
        precondition(!manifest.name.unicodeScalars.contains { $0.properties.generalCategory == .control })
        clips = manifest.clips
    case .failure:
        clips = []
    }
    // Without clips of its own, the message's words are the phrases: matches are then certain.
    let phrases =
        clips.isEmpty
        ? message.split(whereSeparator: { $0.isWhitespace }).prefix(20).enumerated().map {
            (String($0.element), "clip\($0.offset).wav")
        } : clips.map { ($0.phrase, $0.file) }
    let book = PhraseBook(phrases)

    var end = message.startIndex
    for match in book.matches(in: message) {
        precondition(match.range.lowerBound >= end && match.range.lowerBound < match.range.upperBound)
        end = match.range.upperBound
        let alone = book.matches(in: String(message[match.range]))
        precondition(
            alone.count == 1 && alone[0].clip == match.clip
                && String(message[match.range])[alone[0].range] == message[match.range],
            "\(message[match.range].debugDescription) is not found again on its own")
    }

    var marks: [String] = []
    for case .startTag(let name, let attributes, _) in SSMLReader.tokens(of: message) where name.lowercased() == "mark"
    {
        if let markName = attributes.first(where: { $0.name == "name" })?.value { marks.append(markName) }
    }
    // The message's first byte says whether there is a fallback voice: one rewrite per run.
    for keepsOtherText in [message.utf8.first.map { $0 & 1 == 0 } ?? true] {
        let rewritten = ClipMarkup.replacingPhrases(in: message, keepsOtherText: keepsOtherText) { text in
            book.matches(in: text).map { ($0.range, $0.clip) }
        }
        let reported = Segmenter().segments(of: rewritten).flatMap { $0.leadingMarks + $0.inlineMarks }
        precondition(reported == marks, "marks \(marks) became \(reported) in \(rewritten.debugDescription)")

        let unbroken = PhraseBook(phrases.filter { !$0.0.unicodeScalars.contains { ".?!…。？！।؟".unicodeScalars.contains($0) } })
        let find: @Sendable (String) -> [ClipMarkup.Phrase] = { text in unbroken.matches(in: text).map { ($0.range, $0.clip) } }
        var whole = Segmenter()
        whole.textPieces = nil
        let reference = said(whole.segments(of: ClipMarkup.replacingPhrases(in: message, keepsOtherText: keepsOtherText, find: find)))
        // The message's second byte says how small its pieces are, so cuts land everywhere.
        let minimum = Int(message.utf8.dropFirst().first ?? 0) % 24 + 1
        var lazy = Segmenter()
        lazy.textPieces = TextPieces(minimumBytes: minimum, maximumBytes: minimum + 16)
        lazy.clips = ClipPhrases(keepsOtherText: keepsOtherText, find: find)
        let pieced = said(lazy.segments(of: message))
        precondition(pieced == reference, "a run at a time: \(pieced)\nwhole: \(reference)")
    }
    return 0
}
