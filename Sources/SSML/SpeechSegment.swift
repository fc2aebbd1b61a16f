/// A stretch of a message the engine synthesises in one call, with the marks around it.
///
/// libespeak-ng 1.51 loses a `<mark/>` that follows a sentence end, which is where the server
/// puts its `__spd_N` marks. So a message is cut before every such mark and before the first word:
/// those marks are `leadingMarks`, reported by Utter itself at the first sample of the segment.
/// Marks inside a sentence stay in `markup`, renamed `m0`, `m1`, … (index into `inlineMarks`),
/// so the engine reports them at their exact sample whatever characters the real names hold.
public struct SpeechSegment: Equatable, Sendable {
    /// Marks to report before the first sample of this segment, in order.
    public var leadingMarks: [String]
    /// SSML for the engine, a complete `<speak>` document; nil when there is nothing to say.
    public var markup: String?
    /// The real names of the marks inside `markup`, in order.
    public var inlineMarks: [String]
    /// An SSML `<audio src>` played in this segment's place; `markup` is then its fallback content,
    /// spoken only when the sound cannot be played. The marks of an unspoken fallback are reported
    /// when the sound ends, so none is ever lost.
    public var sound: String?
    /// For a clip voice's clip: the words of the phrase it says, for its pace (0: unknown).
    public var soundWords: Int?
    /// Silence before the segment, in milliseconds: SSML breaks before its first word, which
    /// libespeak-ng 1.51 ignores at the start of an utterance.
    public var leadingSilence: Int

    /// Where the message's plain text sits in `markup`, so the engine's word positions can be
    /// mapped back to it. Spelled text has none.
    public var textRuns: [TextRun]

    /// The language of another voice that speaks this segment (``LanguageSwitching``); nil for the
    /// message's own voice.
    public var language: String?
    /// Whether the engine ends the segment with a sentence's pause when another follows: not when
    /// the sentence goes on in another voice (or, for a neural voice, at another `<prosody rate>`)
    /// without a punctuation mark between them.
    public var pausesAtEnd: Bool
    /// Whether the segment goes on with the sentence of the one before it in another voice (or at
    /// another rate), so that the engine's leading silence is no pause in the sentence.
    public var continuesSentence: Bool
    /// Whether the segment was cut from a long text at a sentence end (``TextPieces``): the next
    /// segment is more of that text, speech and no sound, and need not be made before this one is
    /// spoken.
    public var textGoesOn = false

    /// A stretch of `markup` that is the message's text, escaped.
    public struct TextRun: Equatable, Sendable {
        /// Where it starts in `markup`, in Unicode scalars.
        public var markupOffset: Int
        /// Its length in `markup` (entities at full length), in Unicode scalars.
        public var markupLength: Int
        /// Where its text starts in the message's text content (markup left out, entities
        /// decoded), in Unicode scalars.
        public var textOffset: Int
        /// For a word a ``TextReading`` rewrote (kanji given as kana), the length of the text it
        /// stands for: any word the engine finds in it is that text. nil: the markup is the text.
        public var textLength: Int?

        public init(markupOffset: Int, markupLength: Int, textOffset: Int, textLength: Int? = nil) {
            self.markupOffset = markupOffset
            self.markupLength = markupLength
            self.textOffset = textOffset
            self.textLength = textLength
        }
    }

    public init(
        leadingMarks: [String] = [], markup: String? = nil, inlineMarks: [String] = [], sound: String? = nil,
        leadingSilence: Int = 0, textRuns: [TextRun] = [], language: String? = nil, pausesAtEnd: Bool = true,
        continuesSentence: Bool = false
    ) {
        self.textRuns = textRuns
        self.language = language
        self.pausesAtEnd = pausesAtEnd
        self.continuesSentence = continuesSentence
        self.leadingMarks = leadingMarks
        self.markup = markup
        self.inlineMarks = inlineMarks
        self.sound = sound
        self.leadingSilence = leadingSilence
    }

    /// The engine-side name of inline mark `index`.
    public static func inlineMarkName(_ index: Int) -> String { "m\(index)" }

    /// The index encoded in an engine-side mark name, if it is one of ours.
    public static func inlineMarkIndex(_ name: String) -> Int? {
        guard name.first == "m" else { return nil }
        return Int(name.dropFirst())
    }
}
