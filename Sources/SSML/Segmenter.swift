import RealModule  // pow, for decibels

/// Cuts an SSML message into `SpeechSegment`s for the engine.
public struct Segmenter: Sendable {
    /// Elements passed on to the engine; others are dropped and their content kept.
    static let forwardedElements: Set<String> = [
        "voice", "prosody", "say-as", "s", "p", "break", "sub", "emphasis",
    ]
    /// Deeper nesting is flattened: the content is spoken, the extra tags are dropped.
    static let maximumForwardedDepth = 32

    /// How capital letters are told apart when text is spelled.
    public enum Capitals: Equatable, Sendable {
        case none
        /// The engine announces each spelled capital in the message language ("capital A", "groß A").
        case spell
        /// A short sound precedes each spelled capital; the value is an `<audio src>`.
        case icon(String)
    }

    /// When true, every text is spelled letter by letter (`spelling_mode=on`).
    public var spellsText: Bool
    public var capitals: Capitals
    /// How much higher a spelled capital letter is spoken, in the engine's pitch steps (0: not
    /// raised): `<prosody pitch="+N">`, as libespeak-ng ignores its capitals setting in spelling.
    public var capitalPitchSteps = 0
    /// Voice names clients may write in `<voice name>`, lowercased, with the engine's name for each.
    public var engineVoiceNames: [String: String]
    /// How text in other scripts and in other languages (`xml:lang`) goes to other voices; nil:
    /// the message's voice reads everything, and the engine follows `xml:lang` itself.
    public var languageSwitching: LanguageSwitching?
    /// The languages whose text goes to the reader; nil: every language it reads. The voice that
    /// speaks a language must read what its reader makes (Mandarin's pinyin only one voice reads).
    public var readLanguages: Set<String>?
    /// When true, a `<break>` after speech ends its segment and becomes the next one's leading
    /// silence: for voices that take text without markup (neural ones), which would drop it.
    public var breaksEndSegments = false
    /// When true, a `<prosody rate>` around speech ends the segment before it and after it, the
    /// sentence going on across the cut (``SpeechSegment/pausesAtEnd``): for voices that speak
    /// each segment at one pace (neural ones, whose model takes one length scale a run).
    public var prosodyRatesEndSegments = false

    public init(
        spellsText: Bool = false, capitals: Capitals = .none, engineVoiceNames: [String: String] = [:],
        languageSwitching: LanguageSwitching? = nil
    ) {
        self.spellsText = spellsText
        self.capitals = capitals
        self.engineVoiceNames = engineVoiceNames
        self.languageSwitching = languageSwitching
    }

    /// Where long text is cut into segments at sentence ends (nil: only where markup cuts it), so
    /// that a long message is read, segmented and spoken a piece at a time: its first sound and the
    /// memory it takes do not grow with its length.
    public var textPieces: TextPieces? = TextPieces()

    /// For a clip voice: its phrases, each read as the `<audio>` of its clip (``ClipMarkup``),
    /// found a run of text at a time as the segments are made.
    public var clips: ClipPhrases?

    /// The segments of `ssml`, in order. Marks at the very end form a last segment with no markup.
    /// The text of the languages `reader` knows is given to the engine as its words.
    public func segments(of ssml: String, reader: (any TextReading)? = nil) -> [SpeechSegment] {
        Array(lazySegments(of: ssml, reader: reader))
    }

    /// The segments of `ssml` as ``segments(of:reader:)`` gives them, each made when it is asked
    /// for: reading goes no further into `ssml` than the segment being made.
    public func lazySegments(of ssml: String, reader: (any TextReading)? = nil) -> Segments {
        Segments(
            tokens: SSMLTokens(ssml, textPieces: textPieces), clips: clips.map(ClipTokens.init),
            builder: Builder(options: self, reader: reader))
    }

    /// The segments of one message, made one at a time (``Segmenter/lazySegments(of:reader:)``).
    public struct Segments: Sequence, IteratorProtocol {
        private var tokens: SSMLTokens
        private var clips: ClipTokens?
        private var builder: Builder
        private var made: [SpeechSegment] = []
        private var taken = 0
        private var isFinished = false

        fileprivate init(tokens: SSMLTokens, clips: ClipTokens?, builder: Builder) {
            self.tokens = tokens
            self.clips = clips
            self.builder = builder
        }

        /// How far into the message's UTF-8 bytes the segments given so far have read.
        public var bytesRead: Int { tokens.bytesRead }

        public mutating func next() -> SpeechSegment? {
            while taken == made.count {
                guard !isFinished else { return nil }
                made.removeAll(keepingCapacity: true)
                taken = 0
                if let token = clips != nil ? clips!.next(from: &tokens) : tokens.next() {
                    builder.add(token)
                    if clips?.endedAtSentence ?? tokens.endedAtSentence { builder.cutAtSentenceEnd() }
                } else {
                    builder.closeSegment()
                    isFinished = true
                }
                swap(&made, &builder.segments)
            }
            taken += 1
            return made[taken - 1]
        }
    }

    /// The length of a `<break>`: its `time` (`500ms`, `1.5s`), else its `strength` (SSML's
    /// default, medium, without either).
    public static func breakMilliseconds(_ attributes: [SSMLAttribute]) -> Int {
        if let time = attributes.first(where: { $0.name == "time" })?.value.lowercased().filter({ $0 != " " }) {
            let (number, scale) =
                time.hasSuffix("ms")
                ? (time.dropLast(2), 1.0) : time.hasSuffix("s") ? (time.dropLast(), 1000.0) : (Substring(time), 1.0)
            if let value = Double(number), value.isFinite, value >= 0 { return Int(min(value * scale, 60_000)) }
        }
        switch attributes.first(where: { $0.name == "strength" })?.value.lowercased() {
        case "none": return 0
        case "x-weak": return 100
        case "weak": return 200
        case "strong": return 700
        case "x-strong": return 1200
        default: return 400
        }
    }

    /// `volume` in decibels (`+6dB`, `-3.5dB`) as the percentage of the current volume the engine
    /// understands (`200%`, `67%`); nil when `value` is no decibel value.
    public static func percentVolume(decibels value: String) -> String? {
        guard value.lowercased().hasSuffix("db"), let decibels = Double(value.dropLast(2)), decibels.isFinite else {
            return nil
        }
        let percent = 100 * Double.pow(10, min(max(decibels, -96), 40) / 20)
        return "\(Int(percent.rounded()))%"
    }
}

struct Builder {
    struct OpenElement {
        var name: String
        var openingTag: String?  // nil when not forwarded
        var isAudio = false
        /// The `xml:lang` it gives its content, when the segmenter switches languages itself.
        var language: String?
        /// A `<prosody rate>`.
        var changesRate = false
    }

    let options: Segmenter
    var reader: (any TextReading)?
    /// The open elements that set a language (with language switching).
    private(set) var languageElements = 0
    var segments: [SpeechSegment] = []
    /// Every open element; the two records below keep each tag's work independent of the nesting
    /// depth (markup nested 100,000 deep must not make the segmenter quadratic).
    private(set) var open: [OpenElement] = []
    /// The open elements that are forwarded to the engine (at most `maximumForwardedDepth`).
    private(set) var forwarded: [OpenElement] = []
    /// How many elements of each name are open, so an end tag nothing matches costs no search.
    private(set) var openCounts: [String: Int] = [:]
    var speakAttributes = ""
    var sawSpeak = false

    // The segment being built.
    var leadingMarks: [String] = []
    var inlineMarks: [String] = []
    var body = MarkupBuffer()
    /// The runs of plain text in `body`, offsets relative to `body`.
    var textRuns: [SpeechSegment.TextRun] = []
    /// Unicode scalars of text content read so far (markup excluded, entities decoded).
    var textOffset = 0
    var hasSpeech = false
    var spokenTail = ""  // the last non-space characters of text, to see sentence ends
    /// The `src` of the `<audio>` being read: its content is the fallback of one sound segment.
    var sound: String?
    /// The words of the phrase the sound says, when a clip voice's rewriting gave them.
    var soundWords: Int?
    var leadingSilence = 0
    /// The language of the voice that speaks the segment being built (nil: the message's).
    var language: String?
    /// The segment being built goes on with the sentence of the one before it, in another voice.
    var continuesSentence = false

    init(options: Segmenter, reader: (any TextReading)?) {
        self.options = options
        self.reader = reader
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
            if local == "audio" {
                addAudio(attributes: attributes, isSelfClosing: isSelfClosing, name: name)
                return
            }
            if local == "break" {
                if !hasSpeech && sound == nil {
                    leadingSilence = min(leadingSilence + Segmenter.breakMilliseconds(attributes), 60_000)
                } else if options.breaksEndSegments && sound == nil {
                    closeSegment()
                    leadingSilence = min(Segmenter.breakMilliseconds(attributes), 60_000)
                } else {
                    body += "<break\(attributes.map(Self.render).joined())/>"
                }
                if !isSelfClosing { push(OpenElement(name: name, openingTag: nil)) }
                return
            }
            guard !isSelfClosing else { return }
            let forwarded =
                Segmenter.forwardedElements.contains(local)
                && forwarded.count < Segmenter.maximumForwardedDepth
            var attributes = attributes
            var language: String?
            if options.languageSwitching != nil, let index = attributes.firstIndex(where: { $0.name == "xml:lang" }) {
                // Utter gives the content to the voice it chooses for the language, as it does for
                // text in other scripts; the engine must not switch again inside it.
                language = attributes.remove(at: index).value
                if language?.isEmpty == true { language = nil }
            }
            if let language, let switching = options.languageSwitching, sound == nil {
                // The element starts the other voice's segment, so that it is not left empty here.
                switchLanguage(to: explicitRun(language, switching, scalars: 0))
            }
            let changesRate = local == "prosody" && attributes.contains { $0.name == "rate" }
            if changesRate && options.prosodyRatesEndSegments && hasSpeech && sound == nil {
                closeSegment(sentenceGoesOn: true)
            }
            let openingTag =
                forwarded ? "<\(local)\(translated(attributes, of: local).map(Self.render).joined())>" : nil
            if let openingTag { body += openingTag }
            push(OpenElement(name: name, openingTag: openingTag, language: language, changesRate: changesRate))
        case .endTag(let name):
            if localName(name) == "speak" { return }
            guard openCounts[name, default: 0] > 0, let index = open.lastIndex(where: { $0.name == name }) else {
                return
            }
            // Each element is popped once, so the search above is paid for by the pops.
            var closesAudio = false
            var closesRate = false
            while open.count > index {
                let element = pop()
                if element.openingTag != nil { body += "</\(localName(element.name))>" }
                closesAudio = closesAudio || element.isAudio
                closesRate = closesRate || element.changesRate
            }
            if closesAudio {
                closeSegment()
            } else if closesRate && options.prosodyRatesEndSegments && hasSpeech && sound == nil {
                closeSegment(sentenceGoesOn: true)
            }
        }
    }

    mutating func push(_ element: OpenElement) {
        open.append(element)
        openCounts[element.name, default: 0] += 1
        if element.openingTag != nil { forwarded.append(element) }
        if element.language != nil { languageElements += 1 }
    }

    mutating func pop() -> OpenElement {
        let element = open.removeLast()
        let count = openCounts[element.name, default: 1] - 1
        openCounts[element.name] = count > 0 ? count : nil
        if element.openingTag != nil { forwarded.removeLast() }
        if element.language != nil { languageElements -= 1 }
        return element
    }

    /// The language the markup gives the text here (the innermost `xml:lang`), if any.
    var markupLanguage: String? {
        guard languageElements > 0 else { return nil }
        return open.last(where: { $0.language != nil })?.language
    }

    /// `<audio src>` becomes a segment of its own whose markup is the fallback content. Inside
    /// a fallback, another `<audio>` only contributes its content.
    mutating func addAudio(attributes: [SSMLAttribute], isSelfClosing: Bool, name: String) {
        guard sound == nil else {
            if !isSelfClosing { push(OpenElement(name: name, openingTag: nil)) }
            return
        }
        startSound(attributes.first { $0.name == "src" }?.value ?? "")
        soundWords = attributes.first { $0.name == ClipMarkup.wordsAttribute }.flatMap { Int($0.value) }
        if isSelfClosing {
            closeSegment()
        } else {
            push(OpenElement(name: name, openingTag: nil, isAudio: true))
        }
    }

    /// Ends the speech so far and starts a sound segment; marks since the last speech lead it.
    mutating func startSound(_ source: String) {
        if hasSpeech || !inlineMarks.isEmpty { closeSegment() }
        sound = source
        soundWords = nil
    }

    /// Attributes the engine would misread, put in its terms: Utter's voice names in `<voice
    /// name>`, decibels in `<prosody volume>` (libespeak-ng 1.51 reads `+6dB` as `+6%`).
    func translated(_ attributes: [SSMLAttribute], of element: String) -> [SSMLAttribute] {
        attributes.map { attribute in
            var attribute = attribute
            if element == "voice" && attribute.name == "name",
                let engineName = options.engineVoiceNames[attribute.value.lowercased()]
            {
                attribute.value = engineName
            } else if element == "prosody" && attribute.name == "volume",
                let percent = Segmenter.percentVolume(decibels: attribute.value)
            {
                attribute.value = percent
            }
            return attribute
        }
    }

    mutating func addText(_ text: String) {
        guard !text.isEmpty else { return }
        let scalars = text.unicodeScalars.count
        defer { textOffset += scalars }
        if options.spellsText && text.contains(where: { !$0.isWhitespace }) {
            addSpelled(text)
            noteSpeech(text)
            return
        }
        guard let switching = options.languageSwitching, sound == nil else {
            addPlain(text, at: textOffset, readAs: nil)
            noteSpeech(text)
            return
        }
        let runs: [LanguageSwitching.Run]
        let readAs: String
        if let explicit = markupLanguage {
            runs = [explicitRun(explicit, switching, scalars: scalars)]
            readAs = explicit
        } else {
            runs = switching.runs(of: text, continuing: language)
            readAs = switching.messageLanguage
        }
        guard runs.count > 1 else {
            if let run = runs.first { switchLanguage(to: run) }
            addPlain(text, at: textOffset, readAs: runs.first?.language ?? readAs)
            noteSpeech(text)
            return
        }
        let all = Array(text.unicodeScalars)
        for run in runs {
            var piece = ""
            piece.unicodeScalars.append(contentsOf: all[run.scalars])
            switchLanguage(to: run)
            addPlain(piece, at: textOffset + run.scalars.lowerBound, readAs: run.language ?? readAs)
            noteSpeech(piece)
        }
    }

    /// Text in a language markup gives: obeyed whatever its scripts, by that language's voice unless
    /// it is the message's own language (or no voice speaks it).
    func explicitRun(_ language: String, _ switching: LanguageSwitching, scalars: Int) -> LanguageSwitching.Run {
        let own = Self.primary(language) == Self.primary(switching.messageLanguage) || !switching.isAvailable(language)
        return LanguageSwitching.Run(language: own ? nil : language, scalars: 0..<scalars, hasLetters: true)
    }

    /// Starts a segment for another voice when `run` is in another language than the text before it.
    mutating func switchLanguage(to run: LanguageSwitching.Run) {
        guard run.hasLetters, run.language != language else { return }
        if hasSpeech {
            closeSegment(sentenceGoesOn: true)
        }
        language = run.language
    }

    /// Text as the engine reads it, from text content offset `offset` on: as written, or as the
    /// words `reader` makes of it for language `readAs`.
    mutating func addPlain(_ text: String, at offset: Int, readAs: String?) {
        if let readAs, reader != nil, reader!.languages.contains(Self.primary(readAs)),
            options.readLanguages?.contains(Self.primary(readAs)) ?? true,
            text.unicodeScalars.contains(where: { Script.of($0) != nil })
        {
            addRead(text, at: offset, language: Self.primary(readAs))
            return
        }
        if options.capitalPitchSteps > 0, let sayAs = openCharactersSayAs, text.contains(where: Self.isCapital) {
            addRaisingCapitals(text, at: offset, inside: sayAs)
            return
        }
        let escaped = SSMLText.escape(text)
        let length =
            escaped.utf8.count == text.utf8.count ? text.unicodeScalars.count : escaped.unicodeScalars.count
        textRuns.append(SpeechSegment.TextRun(markupOffset: body.scalars, markupLength: length, textOffset: offset))
        body += escaped
    }

    /// The opening tag of the `<say-as interpret-as="characters">` the text is directly in, if it is.
    var openCharactersSayAs: String? {
        guard let element = open.last, localName(element.name) == "say-as", let tag = element.openingTag,
            tag.contains("interpret-as=\"characters\"")
        else { return nil }
        return tag
    }

    static func isCapital(_ character: Character) -> Bool { character.isUppercase && character.isLetter }

    /// The `<prosody>` that raises a capital letter.
    var raisedOpening: String { "<prosody pitch=\"+\(options.capitalPitchSteps)\">" }

    /// Spelled text from the client's `say-as characters`: each capital in a raised `say-as` of
    /// its own, the element closed around it and opened again after; every piece keeps its place
    /// in the message's text.
    mutating func addRaisingCapitals(_ text: String, at offset: Int, inside sayAs: String) {
        var position = offset
        var run = ""
        func addText(_ piece: String, _ builder: inout Builder) {
            guard !piece.isEmpty else { return }
            let escaped = SSMLText.escape(piece)
            let length =
                escaped.utf8.count == piece.utf8.count ? piece.unicodeScalars.count : escaped.unicodeScalars.count
            builder.textRuns.append(
                SpeechSegment.TextRun(markupOffset: builder.body.scalars, markupLength: length, textOffset: position))
            builder.body += escaped
            position += piece.unicodeScalars.count
        }
        for character in text {
            guard Self.isCapital(character) else {
                run.append(character)
                continue
            }
            addText(run, &self)
            run = ""
            body += "</say-as>\(raisedOpening)\(sayAs)"
            addText(String(character), &self)
            body += "</say-as></prosody>\(sayAs)"
        }
        addText(run, &self)
    }

    /// Text as the reader's words, each apart from the next, each mapped to the text it stands for.
    mutating func addRead(_ text: String, at offset: Int, language: String) {
        let words = reader!.words(of: text, language: language)
        let all = Array(text.unicodeScalars)
        var position = 0
        for word in words {
            // A reader that breaks its contract loses the word, never the message.
            guard word.source.lowerBound >= position, word.source.upperBound <= all.count, !word.source.isEmpty
            else { continue }
            if word.source.lowerBound > position {
                var between = ""
                between.unicodeScalars.append(contentsOf: all[position..<word.source.lowerBound])
                addPlain(between, at: offset + position, readAs: nil)
            }
            let spoken = SSMLText.escape(word.spoken)
            if !spoken.isEmpty {
                body += " "
                textRuns.append(
                    SpeechSegment.TextRun(
                        markupOffset: body.scalars, markupLength: spoken.unicodeScalars.count,
                        textOffset: offset + word.source.lowerBound, textLength: word.source.count))
                body += spoken
                body += " "
            }
            position = word.source.upperBound
        }
        if position < all.count {
            var rest = ""
            rest.unicodeScalars.append(contentsOf: all[position...])
            addPlain(rest, at: offset + position, readAs: nil)
        }
    }

    mutating func noteSpeech(_ text: String) {
        if text.contains(where: { !$0.isWhitespace }) {
            hasSpeech = true
            let trimmed = text.reversed().drop(while: \.isWhitespace)
            spokenTail = String(trimmed.prefix(4).reversed())
        }
    }

    static func primary(_ tag: String) -> String {
        String(tag.lowercased().prefix { $0 != "-" && $0 != "_" })
    }

    /// Spelled text: letter by letter, capitals announced as `options.capitals` says. libespeak-ng
    /// ignores its capitals setting inside `say-as characters`, but names a capital in `tts:char`.
    mutating func addSpelled(_ text: String) {
        guard options.capitals != .none || options.capitalPitchSteps > 0 else {
            body += "<say-as interpret-as=\"characters\">\(SSMLText.escape(text))</say-as>"
            return
        }
        let raised = options.capitalPitchSteps > 0
        var run = ""
        func flush(_ builder: inout Builder) {
            if run.contains(where: { !$0.isWhitespace }) {
                builder.body += "<say-as interpret-as=\"characters\">\(SSMLText.escape(run))</say-as>"
                builder.hasSpeech = true
            } else {
                builder.body += run
            }
            run = ""
        }
        for character in text {
            guard Self.isCapital(character) else {
                run.append(character)
                continue
            }
            flush(&self)
            let letter = SSMLText.escape(String(character))
            switch options.capitals {
            case .spell:
                body += raised ? raisedOpening : ""
                body += "<say-as interpret-as=\"tts:char\">\(letter)</say-as>"
                body += raised ? "</prosody>" : ""
            case .icon(let source):
                if sound == nil {
                    startSound(source)
                    closeSegment()
                }
                guard raised else {
                    // The capital starts the next run, so the letters are spelled as without icons.
                    run.append(character)
                    continue
                }
                body += "\(raisedOpening)<say-as interpret-as=\"characters\">\(letter)</say-as></prosody>"
            case .none:
                body += "\(raisedOpening)<say-as interpret-as=\"characters\">\(letter)</say-as></prosody>"
            }
            hasSpeech = true
        }
        flush(&self)
    }

    mutating func addMark(_ name: String) {
        if options.breaksEndSegments && !hasSpeech && leadingSilence > 0 && sound == nil {
            // A mark after a break is reached when the speech after it starts, not with the
            // silence: the break becomes a segment of its own, the mark leads the next.
            closeSegment()
            leadingMarks.append(name)
        } else if !hasSpeech {
            leadingMarks.append(name)
        } else if Self.endsSentence(spokenTail) && sound == nil {
            closeSegment()
            leadingMarks.append(name)
        } else {
            body += "<mark name=\"\(SpeechSegment.inlineMarkName(inlineMarks.count))\"/>"
            inlineMarks.append(name)
        }
    }

    /// Closes the current segment and starts the next one inside the same open elements;
    /// `sentenceGoesOn` when the sentence goes on in the next (in another voice, at another rate).
    mutating func closeSegment(sentenceGoesOn: Bool = false) {
        let closing = forwarded.reversed().map { "</\(localName($0.name))>" }.joined()
        let opening = "<speak\(speakAttributes)>"
        // libespeak-ng ends `</speak>` with a sentence's pause whatever its flags say: a sentence
        // that goes on in another voice is left open, so that the voices follow each other at once.
        let goesOn = sentenceGoesOn && !endsClause(spokenTail)
        let markup = hasSpeech ? "\(opening)\(body.text)\(closing)\(goesOn ? "" : "</speak>")" : nil
        if markup != nil || !leadingMarks.isEmpty || !inlineMarks.isEmpty || sound != nil || leadingSilence > 0 {
            segments.append(
                SpeechSegment(
                    leadingMarks: leadingMarks, markup: markup, inlineMarks: markup == nil ? [] : inlineMarks,
                    sound: sound, leadingSilence: leadingSilence,
                    textRuns: markup == nil ? [] : shifted(textRuns, by: opening.unicodeScalars.count),
                    language: language,
                    pausesAtEnd: !goesOn, continuesSentence: continuesSentence))
            if sound != nil { segments[segments.count - 1].soundWords = soundWords }
            // Without markup, inline marks cannot exist: a mark before any speech is leading.
        }
        continuesSentence = goesOn && markup != nil
        sound = nil
        soundWords = nil
        leadingSilence = 0
        leadingMarks = []
        inlineMarks = []
        hasSpeech = false
        spokenTail = ""
        body = MarkupBuffer(forwarded.compactMap(\.openingTag).joined())
        textRuns = []
    }

    func shifted(_ runs: [SpeechSegment.TextRun], by offset: Int) -> [SpeechSegment.TextRun] {
        runs.map { run in
            var run = run
            run.markupOffset += offset
            return run
        }
    }

    /// After text that ends where a sentence surely ends, cut into pieces for being long
    /// (``TextPieces``): the segment ends there, unless the cut would split what must stay whole
    /// (a sound's fallback, spelled text, a `<sub>` or `<say-as>`, whose content is one reading).
    mutating func cutAtSentenceEnd() {
        guard hasSpeech, sound == nil, !options.spellsText,
            !open.contains(where: { ["sub", "say-as", "audio"].contains(localName($0.name)) })
        else { return }
        let before = segments.count
        closeSegment()
        if segments.count > before { segments[segments.count - 1].textGoesOn = true }
    }

    /// Whether the text ends with a mark the engine pauses at (a comma as well as a full stop).
    func endsClause(_ tail: String) -> Bool {
        let stripped = tail.reversed().drop { "\"'”’»)]}」』）".contains($0) }
        guard let last = stripped.first else { return false }
        return ".?!…。？！।؟,;:、，；：".contains(last)
    }

    static func endsSentence(_ tail: some StringProtocol) -> Bool {
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
        " \(attribute.name)=\"\(SSMLText.escape(attribute.value, quotes: true))\""
    }

}

/// The markup of a segment being built, with its length in Unicode scalars (the unit of the
/// engine's word positions), kept as it grows rather than counted again.
struct MarkupBuffer {
    private(set) var text: String
    private(set) var scalars: Int

    init(_ text: String = "") {
        self.text = text
        self.scalars = text.unicodeScalars.count
    }

    static func += (buffer: inout MarkupBuffer, piece: String) {
        buffer.text += piece
        buffer.scalars += piece.unicodeScalars.count
    }
}

/// Text made safe to put into SSML.
public enum SSMLText {
    /// `text` with `&`, `<`, `>` (and with `quotes`, `"`) as entities. Works on Unicode scalars:
    /// as Characters, `<` followed by a combining mark is one grapheme that equals no `<`, and would
    /// slip through unescaped (found by the SSML fuzzer).
    public static func escape(_ text: String, quotes: Bool = false) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || (quotes && $0 == 0x22) }) else {
            return text
        }
        // String appends, not `UnicodeScalarView.append(contentsOf:)`, which copies the whole view
        // on every call (a megabyte of `<` took minutes).
        var result = ""
        result.reserveCapacity(text.utf8.count + text.utf8.count / 4)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
