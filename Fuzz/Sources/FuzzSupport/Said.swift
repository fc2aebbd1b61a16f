import SSML

/// What segments say, whatever their borders: every scalar of the text's characters that are not
/// spaces, at its offset in the text (a segment of nothing but spaces has no markup, and none is
/// spoken), the marks, the sounds, the silence.
public struct Said: Equatable, CustomStringConvertible {
    var offsets: [Int] = []
    var scalars: [Unicode.Scalar] = []
    var marks: [String] = []
    var sounds: [String] = []
    var silence = 0

    public var description: String {
        "text \(String(String.UnicodeScalarView(scalars)).debugDescription) at \(offsets) marks \(marks) sounds \(sounds) silence \(silence)"
    }
}

public func said(_ segments: [SpeechSegment]) -> Said {
    var said = Said()
    for segment in segments {
        said.marks += segment.leadingMarks + segment.inlineMarks
        if let sound = segment.sound { said.sounds.append(sound) }
        said.silence += segment.leadingSilence
        guard let markup = segment.markup, segment.sound == nil else { continue }
        let scalars = Array(markup.unicodeScalars)
        for run in segment.textRuns {
            let escaped = String(String.UnicodeScalarView(scalars[run.markupOffset..<run.markupOffset + run.markupLength]))
            var offset = run.textOffset
            for character in SSMLReader.textContent(of: escaped) {
                defer { offset += character.unicodeScalars.count }
                guard !character.isWhitespace else { continue }
                for (index, scalar) in character.unicodeScalars.enumerated() {
                    said.offsets.append(offset + index)
                    said.scalars.append(scalar)
                }
            }
        }
    }
    return said
}
