/// A word of a text and what a voice is given to read for it.
///
/// Languages written without spaces (Japanese) are cut into words by a reader, and words a voice
/// cannot read as written (kanji) are given to it in a form it can (kana). Word events then stand
/// for the word as written: its `source`, not its `spoken` form.
public struct ReadingWord: Equatable, Sendable {
    /// Where the word is in the text given to the reader, in Unicode scalars.
    public var source: Range<Int>
    /// What the voice reads for it: plain text, not markup (it is escaped where it is put).
    public var spoken: String

    public init(source: Range<Int>, spoken: String) {
        self.source = source
        self.spoken = spoken
    }
}

/// Rewrites the text of a language into words a voice reads correctly.
///
/// The segmenter asks a reader for each run of text in one of its `languages`, and puts each
/// word's `spoken` form in the markup in the word's place, words apart from each other, so the
/// engine reports one word event per word. Text that falls outside every word is kept as written.
public protocol TextReading {
    /// The languages rewritten, as primary BCP 47 subtags in lower case (`ja`).
    var languages: Set<String> { get }
    /// The words of `text`, in order, not overlapping, each within the text.
    mutating func words(of text: String, language: String) -> [ReadingWord]
}
