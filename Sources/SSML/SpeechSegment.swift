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
    /// Silence before the segment, in milliseconds: SSML breaks before its first word, which
    /// libespeak-ng 1.51 ignores at the start of an utterance.
    public var leadingSilence: Int

    /// Where the message's plain text sits in `markup`, so the engine's word positions can be
    /// mapped back to it. Spelled text has none.
    public var textRuns: [TextRun]

    /// A stretch of `markup` that is the message's text, escaped.
    public struct TextRun: Equatable, Sendable {
        /// Where it starts in `markup`, in Unicode scalars.
        public var markupOffset: Int
        /// Its length in `markup` (entities at full length), in Unicode scalars.
        public var markupLength: Int
        /// Where its text starts in the message's text content (markup left out, entities
        /// decoded), in Unicode scalars.
        public var textOffset: Int

        public init(markupOffset: Int, markupLength: Int, textOffset: Int) {
            self.markupOffset = markupOffset
            self.markupLength = markupLength
            self.textOffset = textOffset
        }
    }

    public init(
        leadingMarks: [String] = [], markup: String? = nil, inlineMarks: [String] = [], sound: String? = nil,
        leadingSilence: Int = 0, textRuns: [TextRun] = []
    ) {
        self.textRuns = textRuns
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
