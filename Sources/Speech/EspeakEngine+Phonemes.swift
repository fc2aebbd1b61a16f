import CEspeakNG
import Piper

extension EspeakEngine {
    /// `text`'s phonemes in IPA, clause by clause, as espeak-ng reads it with `voice` (numbers and
    /// abbreviations expanded as it speaks them). libespeak-ng 1.51 returns one clause a call and
    /// leaves out the clause's punctuation; each clause says which text it consumed, where that
    /// punctuation is.
    func phonemes(of text: String, voice: String) throws(SpeechEngineError) -> [PhonemizedClause] {
        try setVoice(voice, variant: nil)
        // Byte offset → scalar offset, for the pointer libespeak-ng advances through the bytes.
        var scalarAt: [Int] = []
        scalarAt.reserveCapacity(text.utf8.count + 1)
        for (index, scalar) in text.unicodeScalars.enumerated() {
            for _ in 0..<UTF8.width(scalar) { scalarAt.append(index) }
        }
        scalarAt.append(text.unicodeScalars.count)
        var clauses: [PhonemizedClause] = []
        text.withCString { start in
            var cursor: UnsafeRawPointer? = UnsafeRawPointer(start)
            let end = UnsafeRawPointer(start) + text.utf8.count
            while let position = cursor, position < end {
                let from = position - UnsafeRawPointer(start)
                let phonemes = withUnsafeMutablePointer(to: &cursor) { pointer in
                    espeak_TextToPhonemes(pointer, espeakCHARS_UTF8, espeakPHONEMES_IPA)
                }
                let to = cursor.map { min(text.utf8.count, $0 - UnsafeRawPointer(start)) } ?? text.utf8.count
                guard to > from || cursor == nil else { break }  // no progress: never loop forever
                let ipa = phonemes.map { String(cString: $0) } ?? ""
                clauses.append(
                    PhonemizedClause(
                        phonemes: ipa.trimmingSpaces(), text: scalarAt[from]..<scalarAt[max(from, to)]))
            }
        }
        return clauses
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
