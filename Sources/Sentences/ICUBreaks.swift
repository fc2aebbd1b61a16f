internal import CICU

/// ICU's own view of a text: sentence boundaries by the Unicode rules, and the abbreviations its
/// data lists for a locale.
enum ICUBreaks {
    /// The UTF-16 offsets where ICU's sentence rules for `locale` end a sentence, the text's end last.
    static func sentenceEnds(in text: [UInt16], locale: String) throws(SentenceError) -> [Int] {
        var status = U_ZERO_ERROR
        let ends: [Int] = text.withUnsafeBufferPointer { buffer in
            // ICU rejects a null pointer with a positive length only; an empty text has no ends.
            guard let iterator = CICU_ubrk_openSentences(locale, buffer.baseAddress, Int32(buffer.count), &status)
            else { return [] }
            defer { CICU_ubrk_close(iterator) }
            var ends: [Int] = []
            while case let end = CICU_ubrk_next(iterator), end != UBRK_DONE { ends.append(Int(end)) }
            return ends
        }
        guard status.rawValue <= U_ZERO_ERROR.rawValue else { throw SentenceError(code: errorName(status)) }
        return ends
    }

    /// The abbreviations ICU's break data lists for `locale` as not ending a sentence (`Mr.`, `z. B.`);
    /// none when it lists none for the locale or its parents.
    static func abbreviations(for locale: String) -> [String] {
        var status = U_ZERO_ERROR
        guard let bundle = CICU_ures_openBreakData(locale, &status) else { return [] }
        defer { CICU_ures_close(bundle) }
        guard let exceptions = CICU_ures_getByKey(bundle, "exceptions", nil, &status) else { return [] }
        defer { CICU_ures_close(exceptions) }
        guard let list = CICU_ures_getByKey(exceptions, "SentenceBreak", nil, &status), status.rawValue <= 0
        else { return [] }
        defer { CICU_ures_close(list) }
        var words: [String] = []
        for index in 0..<CICU_ures_getSize(list) {
            var length: Int32 = 0
            status = U_ZERO_ERROR
            guard let characters = CICU_ures_getStringByIndex(list, index, &length, &status), status.rawValue <= 0
            else { continue }
            words.append(String(decoding: UnsafeBufferPointer(start: characters, count: Int(length)), as: UTF16.self))
        }
        return words
    }

    private static func errorName(_ status: UErrorCode) -> String {
        CICU_u_errorName(status).map { String(cString: $0) } ?? "\(status.rawValue)"
    }
}
