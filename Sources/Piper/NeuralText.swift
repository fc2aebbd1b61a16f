public import SSML

/// A segment's markup as the plain text a neural voice reads: tags left out, entities decoded,
/// each character tied to where it is in the message's text, and where the inline marks are.
public struct NeuralText: Equatable, Sendable {
    public var scalars: [Unicode.Scalar]
    /// For each scalar, the range of the message's text it stands for (nil: not the message's
    /// text, such as spelled-out markup).
    public var textRanges: [Range<Int>?]
    /// Inline marks: the index into the segment's `inlineMarks`, and the scalar offset they stand before.
    public var marks: [Mark]

    public struct Mark: Equatable, Sendable {
        public var index: Int
        public var offset: Int
    }

    public var string: String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }

    public init(segment: SpeechSegment) {
        let markup = Array((segment.markup ?? "").unicodeScalars)
        var scalars: [Unicode.Scalar] = []
        var ranges: [Range<Int>?] = []
        var marks: [Mark] = []
        let runs = segment.textRuns.sorted { $0.markupOffset < $1.markupOffset }
        var runIndex = 0
        var textCounter = 0
        var index = 0
        func run(at position: Int) -> SpeechSegment.TextRun? {
            while runIndex < runs.count && runs[runIndex].markupOffset + runs[runIndex].markupLength <= position {
                runIndex += 1
            }
            guard runIndex < runs.count, runs[runIndex].markupOffset <= position else { return nil }
            if runs[runIndex].markupOffset == position { textCounter = runs[runIndex].textOffset }
            return runs[runIndex]
        }
        while index < markup.count {
            let scalar = markup[index]
            if scalar == "<" {
                let close = markup[index...].firstIndex(of: ">") ?? markup.count - 1
                let tag = String(String.UnicodeScalarView(markup[index...close]))
                if tag.hasPrefix("<mark "), let quote = tag.firstIndex(of: "\"") {
                    let name = tag[tag.index(after: quote)...].prefix { $0 != "\"" }
                    if let markIndex = SpeechSegment.inlineMarkIndex(String(name)) {
                        marks.append(Mark(index: markIndex, offset: scalars.count))
                    }
                } else if tag.hasPrefix("<break") || tag == "</p>" || tag == "</s>" {
                    scalars.append(" ")
                    ranges.append(nil)
                }
                index = close + 1
                continue
            }
            let current = run(at: index)
            var decoded = scalar
            var length = 1
            if scalar == "&", let semicolon = markup[index..<min(markup.count, index + 12)].firstIndex(of: ";") {
                let entity = String(String.UnicodeScalarView(markup[(index + 1)..<semicolon]))
                if let value = Self.entity(entity) {
                    decoded = value
                    length = semicolon + 1 - index
                }
            }
            scalars.append(decoded)
            if let current {
                if let rewritten = current.textLength {
                    ranges.append(current.textOffset..<(current.textOffset + rewritten))
                } else {
                    ranges.append(textCounter..<(textCounter + 1))
                    textCounter += 1
                }
            } else {
                ranges.append(nil)
            }
            index += length
        }
        self.scalars = scalars
        self.textRanges = ranges
        self.marks = marks
    }

    private static func entity(_ name: String) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            }
            if name.hasPrefix("#") { return UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init) }
            return nil
        }
    }

    /// The message text a range of scalars stands for, if any of it is the message's.
    public func textRange(of scalarRange: Range<Int>) -> Range<Int>? {
        let known = scalarRange.clamped(to: 0..<textRanges.count).compactMap { textRanges[$0] }
        guard let first = known.first, let last = known.last else { return nil }
        return first.lowerBound..<max(first.lowerBound, last.upperBound)
    }
}
