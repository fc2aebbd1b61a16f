/// How a clip voice's phrases are found in a message's text, for the segmenter: clips in the
/// place of their phrases, a run of text at a time (``ClipMarkup``).
public struct ClipPhrases: Sendable {
    /// Whether the text no clip covers is spoken (by the voice's fallback), and each clip's
    /// phrase kept as the fallback content of its `<audio>`.
    public var keepsOtherText: Bool
    /// The phrases in a text and their clips, in order, none overlapping.
    public var find: @Sendable (String) -> [ClipMarkup.Phrase]

    public init(keepsOtherText: Bool, find: @escaping @Sendable (String) -> [ClipMarkup.Phrase]) {
        self.keepsOtherText = keepsOtherText
        self.find = find
    }
}

/// A document's tokens with each phrase of a clip voice turned into `<audio src="clip">`, read a
/// run of text at a time: the text between two tags other than marks (Orca marks every word), or
/// less where a long text goes on. A run is searched for phrases when it ends, so a phrase split
/// by marks is still found, and a long message is searched a sentence or so ahead of what is
/// spoken, never as a whole.
///
/// A run ends early only where a phrase is very unlikely to go on: where ``SSMLTokens`` cut long
/// text at a sentence end, at a mark after a sentence end once the run holds `runBytes`, and
/// (text with no sentence end) once it holds `longestRun`. A message whose runs are shorter is
/// rewritten exactly as if searched whole.
struct ClipTokens {
    /// A run holding this much text ends at the next mark after a sentence end.
    static let runBytes = 1024
    /// A run holding this much text ends where ``SSMLTokens`` cuts it, sentence end or not.
    static let longestRun = 64 << 10

    let phrases: ClipPhrases
    /// The run being read: its text, and its marks with the UTF-8 offset in the text each stands at.
    private var text = ""
    private var marks: [(offset: Int, token: SSMLToken)] = []
    /// Tokens made and not yet handed over, each with whether a sentence ends there.
    private var queue: [(token: SSMLToken, endsSentence: Bool)] = []
    private var taken = 0
    /// Open elements whose content keeps its own reading (``ClipMarkup/untouchedElements``).
    private var untouchedDepth: [String: Int] = [:]
    private var untouched = 0
    private var isFinished = false
    /// Whether the token handed over last ends where a long text was cut at a sentence end.
    private(set) var endedAtSentence = false

    init(_ phrases: ClipPhrases) {
        self.phrases = phrases
    }

    /// The next token of the rewritten document, reading `tokens` no further than the run it is in.
    mutating func next(from tokens: inout SSMLTokens) -> SSMLToken? {
        while taken == queue.count {
            queue.removeAll(keepingCapacity: true)
            taken = 0
            guard !isFinished else {
                endedAtSentence = false
                return nil
            }
            if let token = tokens.next() {
                take(token, endedAtSentence: tokens.endedAtSentence, endedInText: tokens.endedInText)
            } else {
                flush()
                isFinished = true
            }
        }
        let (token, endsSentence) = queue[taken]
        taken += 1
        endedAtSentence = endsSentence
        return token
    }

    private mutating func take(_ token: SSMLToken, endedAtSentence: Bool, endedInText: Bool) {
        switch token {
        case .text(let more):
            if untouched == 0 {
                text += more
                if endedAtSentence || (endedInText && text.utf8.count >= Self.longestRun) {
                    flush(endsSentence: endedAtSentence)
                }
            } else if phrases.keepsOtherText {
                queue.append((token, endedAtSentence))
            }
        case .startTag(let name, _, let isSelfClosing):
            let local = ClipMarkup.localName(name)
            if untouched == 0, isSelfClosing, local == "mark" {
                if text.utf8.count >= Self.runBytes, Self.endsSentence(text) { flush() }
                marks.append((text.utf8.count, token))
                return
            }
            flush()
            queue.append((token, false))
            if !isSelfClosing, ClipMarkup.untouchedElements.contains(local) {
                untouchedDepth[name, default: 0] += 1
                untouched += 1
            }
        case .endTag(let name):
            flush()
            queue.append((token, false))
            if let depth = untouchedDepth[name], depth > 0 {
                untouchedDepth[name] = depth - 1
                untouched -= 1
            }
        }
    }

    /// Hands the run over: its text (with a fallback), its phrases as clips, its marks in their
    /// places (a mark inside a phrase just before its clip).
    private mutating func flush(endsSentence: Bool = false) {
        guard !text.isEmpty || !marks.isEmpty else { return }
        let text = self.text
        var marks = self.marks[...]
        self.text = ""
        self.marks.removeAll(keepingCapacity: true)
        let keepsOtherText = phrases.keepsOtherText
        let before = queue.count
        var written = text.startIndex
        func offset(_ index: String.Index) -> Int { text.utf8.distance(from: text.startIndex, to: index) }
        /// The text up to `end` with the marks that stand before it (and at it).
        func writeText(to end: String.Index) {
            let endOffset = offset(end)
            while let mark = marks.first, mark.offset <= endOffset {
                let at = text.utf8.index(text.startIndex, offsetBy: mark.offset)
                if keepsOtherText, at > written { queue.append((.text(String(text[written..<at])), false)) }
                if at > written { written = at }
                queue.append((mark.token, false))
                marks.removeFirst()
            }
            if keepsOtherText, end > written { queue.append((.text(String(text[written..<end])), false)) }
            if end > written { written = end }
        }
        for phrase in phrases.find(text) where phrase.range.lowerBound >= written {
            writeText(to: phrase.range.lowerBound)
            // Marks inside the phrase: heard when its clip starts.
            let phraseEnd = offset(phrase.range.upperBound)
            while let mark = marks.first, mark.offset < phraseEnd {
                queue.append((mark.token, false))
                marks.removeFirst()
            }
            let spoken = text[phrase.range]
            let attributes = [
                SSMLAttribute(name: "src", value: phrase.clip),
                SSMLAttribute(name: ClipMarkup.wordsAttribute, value: String(ClipMarkup.words(in: spoken))),
            ]
            if keepsOtherText {
                queue.append((.startTag(name: "audio", attributes: attributes, isSelfClosing: false), false))
                queue.append((.text(String(spoken)), false))
                queue.append((.endTag(name: "audio"), false))
            } else {
                queue.append((.startTag(name: "audio", attributes: attributes, isSelfClosing: true), false))
            }
            written = phrase.range.upperBound
        }
        writeText(to: text.endIndex)
        if endsSentence, queue.count > before { queue[queue.count - 1].endsSentence = true }
    }

    /// Whether `text`, white space aside, ends a sentence, as the segmenter sees one.
    static func endsSentence(_ text: String) -> Bool {
        var end = text.endIndex
        while end > text.startIndex, text[text.index(before: end)].isWhitespace { end = text.index(before: end) }
        return Builder.endsSentence(text[..<end])
    }
}
