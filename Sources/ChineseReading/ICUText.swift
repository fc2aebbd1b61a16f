internal import CICUI18N

/// What went wrong in ICU, by its error name (`U_MISSING_RESOURCE_ERROR`).
public struct ChineseReadingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `Han-Latin` or `Hant-Hans`.
    public var transliterator: String
    public var code: String
    public var description: String { "ICU could not open its \(transliterator) transliterator: \(code)" }
}

/// The word boundaries ICU's dictionary finds in a text (Chinese has no spaces between words).
enum ICUWords {
    /// A stretch of the text between two boundaries.
    struct Segment: Equatable {
        /// In UTF-16 units.
        var range: Range<Int>
        /// A word (letters, digits, ideographs, kana) rather than spaces or punctuation.
        var isWord: Bool
    }

    /// The segments of `text`, in order and covering it; none when ICU cannot cut it.
    static func segments(of text: [UInt16]) -> [Segment] {
        guard !text.isEmpty, CICUI18N_load() == 0 else { return [] }
        var status = U_ZERO_ERROR
        return text.withUnsafeBufferPointer { buffer in
            guard let iterator = CICUI18N_ubrk_openWords("zh", buffer.baseAddress, Int32(buffer.count), &status)
            else { return [] }
            defer { CICUI18N_ubrk_close(iterator) }
            guard status.rawValue <= U_ZERO_ERROR.rawValue else { return [] }
            var segments: [Segment] = []
            var start = 0
            while case let end = CICUI18N_ubrk_next(iterator), end != UBRK_DONE {
                // Rule statuses below UBRK_WORD_NONE_LIMIT (100) mark what is no word.
                let isWord = CICUI18N_ubrk_getRuleStatus(iterator) >= UBRK_WORD_NONE_LIMIT.rawValue
                segments.append(Segment(range: start..<Int(end), isWord: isWord))
                start = Int(end)
            }
            return segments
        }
    }
}

/// One of ICU's transliterators: `Han-Latin` gives a character's Mandarin reading in pinyin with
/// tone marks, `Hant-Hans` simplified characters for traditional ones.
///
/// Opening Han-Latin compiles tens of thousands of rules (about 0.15 s), so it is opened once per
/// reader. ICU's transliterators are not safe to share between threads: neither is this.
final class Transliterator {
    private let transliterator: UnsafeMutablePointer<UTransliterator?>

    init(_ name: String) throws(ChineseReadingError) {
        guard CICUI18N_load() == 0 else {
            throw ChineseReadingError(transliterator: name, code: String(cString: CICUI18N_loadError()))
        }
        var status = U_ZERO_ERROR
        let identifier = Array(name.utf16)
        let opened = identifier.withUnsafeBufferPointer {
            CICUI18N_utrans_open($0.baseAddress, Int32($0.count), &status)
        }
        guard let opened, status.rawValue <= U_ZERO_ERROR.rawValue else {
            if let opened { CICUI18N_utrans_close(opened) }
            throw ChineseReadingError(
                transliterator: name, code: CICUI18N_u_errorName(status).map { String(cString: $0) } ?? "\(status)")
        }
        transliterator = opened
    }

    deinit { CICUI18N_utrans_close(transliterator) }

    /// `text` transliterated (`你` gives `nǐ`); nil when ICU fails.
    func transliterate(_ text: String) -> String? {
        var units = Array(text.utf16)
        var length = Int32(units.count)
        // A character's reading is a few letters; simplifying a text keeps its length or shortens it.
        units += Array(repeating: 0, count: 32 + units.count)
        var status = U_ZERO_ERROR
        CICUI18N_utrans_transUChars(transliterator, &units, &length, Int32(units.count), &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length >= 0, Int(length) <= units.count else { return nil }
        return String(decoding: units[0..<Int(length)], as: UTF16.self)
    }
}
