/// Cuts an SSML message into `SpeechSegment`s for the engine.
public struct Segmenter: Sendable {
    /// Elements passed on to the engine; others are dropped and their content kept.
    static let forwardedElements: Set<String> = [
        "voice", "prosody", "say-as", "s", "p", "break", "sub", "emphasis",
    ]
    /// Deeper nesting is flattened: the content is spoken, the extra tags are dropped.
    static let maximumForwardedDepth = 32

    /// When true, every text is spelled letter by letter (`spelling_mode=on`).
    public var spellsText: Bool

    public init(spellsText: Bool = false) {
        self.spellsText = spellsText
    }

    /// The segments of `ssml`, in order. Marks at the very end form a last segment with no markup.
    public func segments(of ssml: String) -> [SpeechSegment] {
        var builder = Builder(spellsText: spellsText)
        for token in SSMLReader.tokens(of: ssml) {
            builder.add(token)
        }
        return builder.finish()
    }
}

private struct Builder {
    struct OpenElement {
        var name: String
        var openingTag: String?  // nil when not forwarded
    }

    let spellsText: Bool
    var segments: [SpeechSegment] = []
    var open: [OpenElement] = []
    var speakAttributes = ""
    var sawSpeak = false

    // The segment being built.
    var leadingMarks: [String] = []
    var inlineMarks: [String] = []
    var body = ""
    var hasSpeech = false
    var spokenTail = ""  // the last non-space characters of text, to see sentence ends

    init(spellsText: Bool) {
        self.spellsText = spellsText
    }

    mutating func add(_ token: SSMLToken) {
        switch token {
        case .text(let text):
            addText(text)
        case .startTag(let name, let attributes, let isSelfClosing):
            let local = localName(name)
            if local == "speak" {
                if !sawSpeak {
                    sawSpeak = true
                    speakAttributes = attributes.filter { $0.name == "xml:lang" }.map(Self.render).joined()
                }
                return
            }
            if local == "mark" {
                if let markName = attributes.first(where: { $0.name == "name" })?.value {
                    addMark(markName)
                }
                return
            }
            if local == "break" {
                body += "<break\(attributes.map(Self.render).joined())/>"
                hasSpeech = true
                if !isSelfClosing { open.append(OpenElement(name: name, openingTag: nil)) }
                return
            }
            guard !isSelfClosing else { return }
            let forwarded =
                Segmenter.forwardedElements.contains(local)
                && open.count(where: { $0.openingTag != nil }) < Segmenter.maximumForwardedDepth
            let openingTag = forwarded ? "<\(local)\(attributes.map(Self.render).joined())>" : nil
            if let openingTag { body += openingTag }
            open.append(OpenElement(name: name, openingTag: openingTag))
        case .endTag(let name):
            if localName(name) == "speak" { return }
            guard let index = open.lastIndex(where: { $0.name == name }) else { return }
            while open.count > index {
                let element = open.removeLast()
                if element.openingTag != nil { body += "</\(localName(element.name))>" }
            }
        }
    }

    mutating func addText(_ text: String) {
        guard !text.isEmpty else { return }
        let escaped = Self.escape(text)
        if spellsText && text.contains(where: { !$0.isWhitespace }) {
            body += "<say-as interpret-as=\"characters\">\(escaped)</say-as>"
        } else {
            body += escaped
        }
        if text.contains(where: { !$0.isWhitespace }) {
            hasSpeech = true
            let trimmed = text.reversed().drop(while: \.isWhitespace)
            spokenTail = String(trimmed.prefix(4).reversed())
        }
    }

    mutating func addMark(_ name: String) {
        if !hasSpeech {
            leadingMarks.append(name)
        } else if endsSentence(spokenTail) {
            closeSegment()
            leadingMarks.append(name)
        } else {
            body += "<mark name=\"\(SpeechSegment.inlineMarkName(inlineMarks.count))\"/>"
            inlineMarks.append(name)
        }
    }

    /// Closes the current segment and starts the next one inside the same open elements.
    mutating func closeSegment() {
        let closing = open.reversed().compactMap { $0.openingTag == nil ? nil : "</\(localName($0.name))>" }.joined()
        let markup = hasSpeech ? "<speak\(speakAttributes)>\(body)\(closing)</speak>" : nil
        if markup != nil || !leadingMarks.isEmpty || !inlineMarks.isEmpty {
            segments.append(
                SpeechSegment(leadingMarks: leadingMarks, markup: markup, inlineMarks: markup == nil ? [] : inlineMarks)
            )
            // Without markup, inline marks cannot exist: a mark before any speech is leading.
        }
        leadingMarks = []
        inlineMarks = []
        hasSpeech = false
        spokenTail = ""
        body = open.compactMap(\.openingTag).joined()
    }

    mutating func finish() -> [SpeechSegment] {
        closeSegment()
        return segments
    }

    func endsSentence(_ tail: String) -> Bool {
        // Closing quotes and brackets may follow the full stop: `He said "yes."`
        let stripped = tail.reversed().drop { "\"'”’»)]}".contains($0) }
        guard let last = stripped.first else { return false }
        return ".?!…。？！।؟".contains(last)
    }

    func localName(_ name: String) -> String {
        // `tts:style` and friends keep their prefix; the SSML elements we know have none.
        name.lowercased()
    }

    static func render(_ attribute: SSMLAttribute) -> String {
        " \(attribute.name)=\"\(escape(attribute.value, quotes: true))\""
    }

    static func escape(_ text: String, quotes: Bool = false) -> String {
        guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" || (quotes && $0 == "\"") }) else {
            return text
        }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
