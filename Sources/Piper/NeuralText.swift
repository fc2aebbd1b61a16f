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

    /// A change of pitch from SSML `<prosody pitch>`: the voice's F0 (or `hertz`, when set) plus
    /// `added` hertz, times `factor` and `semitones` higher (nested elements multiply and add; a
    /// pitch in hertz starts again from it).
    public struct Pitch: Equatable, Sendable {
        public var factor: Double = 1
        public var semitones: Double = 0
        /// An absolute pitch (`150Hz`), nil: the voice's own.
        public var hertz: Double?
        /// Hertz added (`+20Hz`, `-10Hz`).
        public var added: Double = 0

        public static let normal = Pitch()

        public init(factor: Double = 1, semitones: Double = 0, hertz: Double? = nil, added: Double = 0) {
            self.factor = factor
            self.semitones = semitones
            self.hertz = hertz
            self.added = added
        }

        /// Whether the change needs the voice's own F0 to be made a ratio.
        public var isInHertz: Bool { hertz != nil || added != 0 }

        /// The factor the hertz of this change multiply the pitch of a voice whose F0 is
        /// `voiceHertz` by, before `factor` and `semitones` (nil: not known, the hertz left out).
        public func hertzRatio(voiceHertz: Double?) -> Double {
            guard isInHertz, let voiceHertz, voiceHertz > 0 else { return 1 }
            return max(1, (hertz ?? voiceHertz) + added) / voiceHertz
        }

        /// The change `value` asks for on top of this one; nil for a value not understood.
        public func changed(by value: String) -> Pitch? {
            let levels: [String: Double] = [
                "x-low": -6, "low": -3, "medium": 0, "default": 0, "high": 3, "x-high": 6,
            ]
            var changed = self
            if let level = levels[value] {
                changed.semitones += level
            } else if value.hasSuffix("%"), let percent = Double(value.dropLast()), percent.isFinite, percent > -100 {
                changed.factor *= 1 + percent / 100
            } else if value.hasSuffix("st"), let steps = Double(value.dropLast(2)), steps.isFinite {
                changed.semitones += steps
            } else if value.lowercased().hasSuffix("hz"), let number = Double(value.dropLast(2)), number.isFinite {
                if value.hasPrefix("+") || value.hasPrefix("-") {
                    changed.added += number
                } else if number > 0 {
                    changed = Pitch(hertz: number)
                } else {
                    return nil
                }
            } else {
                return nil
            }
            return changed
        }
    }

    /// For each scalar, the `<prosody pitch>` it is spoken with.
    public var pitches: [Pitch]
    /// For each scalar, the factor `<prosody rate>` multiplies the message's speed by (1: as the
    /// message). A neural voice has one pace per inference, so the segmenter ends a segment
    /// where it changes (``SSML/Segmenter/prosodyRatesEndSegments``).
    public var rates: [Double]
    /// For each scalar, the gain `<prosody volume>` gives it (1: as the message).
    public var volumes: [Double]

    /// `<prosody rate>`'s speeds by name, as libespeak-ng 1.51 has them.
    static let namedRates: [String: Double] = [
        "default": 1, "x-slow": 0.6, "slow": 0.8, "medium": 1, "fast": 1.25, "x-fast": 1.6,
    ]
    /// `<prosody volume>`'s levels by name, as libespeak-ng 1.51 has them.
    static let namedVolumes: [String: Double] = [
        "default": 1, "silent": 0, "x-soft": 0.3, "soft": 0.65, "medium": 1, "loud": 1.5, "x-loud": 2.3,
    ]

    /// The factor `value` makes of `current`: a name (of the message's setting, as libespeak-ng
    /// reads it), `N%` (of the enclosing one), `+N%`/`-N%`, a bare number (SSML 1.1's multiplier)
    /// and, with `decibels`, `±NdB`; nil for a value not understood, which changes nothing.
    static func factor(_ value: String, of current: Double, named: [String: Double], decibels: Bool) -> Double? {
        let value = value.lowercased().filter { $0 != " " }
        if let level = named[value] { return level }
        if decibels, let percent = Segmenter.percentVolume(decibels: value) {
            return factor(percent, of: current, named: named, decibels: false)
        }
        if value.hasSuffix("%"), let percent = Double(value.dropLast()), percent.isFinite {
            let signed = value.hasPrefix("+") || value.hasPrefix("-")
            return max(0, current * (signed ? 1 + percent / 100 : percent / 100))
        }
        if let number = Double(value), number.isFinite, number >= 0, !value.hasPrefix("+") {
            return current * number
        }
        return nil
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
        var pitches: [Pitch] = []
        var rates: [Double] = []
        var volumes: [Double] = []
        // Each open <prosody>'s settings, so that its closing tag restores the ones around it.
        var stack: [(Pitch, Double, Double)] = []
        var pitch = Pitch.normal
        var rate = 1.0
        var volume = 1.0
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
                    pitches.append(pitch)
                    rates.append(rate)
                    volumes.append(volume)
                } else if tag.hasPrefix("<prosody") && !tag.hasSuffix("/>") {
                    stack.append((pitch, rate, volume))
                    if let value = Self.attribute("pitch", of: tag), let changed = pitch.changed(by: value) {
                        pitch = changed
                    }
                    if let value = Self.attribute("rate", of: tag),
                        let changed = Self.factor(value, of: rate, named: Self.namedRates, decibels: false)
                    {
                        rate = changed
                    }
                    if let value = Self.attribute("volume", of: tag),
                        let changed = Self.factor(value, of: volume, named: Self.namedVolumes, decibels: true)
                    {
                        volume = changed
                    }
                } else if tag.hasPrefix("</prosody") {
                    (pitch, rate, volume) = stack.popLast() ?? (.normal, 1, 1)
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
            pitches.append(pitch)
            rates.append(rate)
            volumes.append(volume)
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
        self.pitches = pitches
        self.rates = rates
        self.volumes = volumes
    }

    /// The rate of the segment's speech: that of its first letter or digit (the segmenter keeps
    /// one rate a segment).
    public var rate: Double {
        guard
            let first = scalars.indices.first(where: {
                scalars[$0].properties.isAlphabetic || scalars[$0].properties.numericType != nil
            })
        else { return 1 }
        return rates[first]
    }

    /// The value of attribute `name` in a start tag, in double or single quotes.
    static func attribute(_ name: String, of tag: String) -> String? {
        let scalars = Array(tag.unicodeScalars)
        let key = Array((name + "=").unicodeScalars)
        var index = 0
        while index + key.count < scalars.count {
            let follows = index == 0 || scalars[index - 1] == " "
            if follows && Array(scalars[index..<(index + key.count)]) == key {
                let quote = scalars[index + key.count]
                guard quote == "\"" || quote == "'" else { return nil }
                let start = index + key.count + 1
                guard let end = scalars[start...].firstIndex(of: quote) else { return nil }
                return String(String.UnicodeScalarView(scalars[start..<end]))
            }
            index += 1
        }
        return nil
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
