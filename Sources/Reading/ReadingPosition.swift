/// Where the reading of a file stopped: the sentence, and a fingerprint of the text, so that an
/// edited file starts again from the beginning rather than at a sentence that moved.
public struct ReadingPosition: Equatable, Sendable {
    /// The sentence to go on from, counting from 0.
    public var sentence: Int
    public var textHash: UInt64

    public init(sentence: Int, text: String) {
        self.init(sentence: sentence, textHash: Self.hash(text))
    }

    public init(sentence: Int, textHash: UInt64) {
        self.sentence = sentence
        self.textHash = textHash
    }

    /// A position as stored by ``record``; nil for anything else.
    public init?(record: String) {
        let fields = record.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let sentence = Int(fields[0]), sentence >= 0,
            let hash = UInt64(fields[1], radix: 16)
        else { return nil }
        self.init(sentence: sentence, textHash: hash)
    }

    /// One line: the sentence and the text's hash.
    public var record: String {
        "\(sentence) \(String(textHash, radix: 16))\n"
    }

    /// The sentence to start `text` of `count` sentences from: this position's when it was stored
    /// for this very text, else the first.
    public func start(for text: String, sentenceCount: Int) -> Int {
        textHash == Self.hash(text) && sentence < sentenceCount ? sentence : 0
    }

    /// FNV-1a of the UTF-8: stable across runs and builds, unlike `Hasher`.
    public static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}
