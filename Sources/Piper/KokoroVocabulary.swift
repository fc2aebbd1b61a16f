import JSON

/// A Kokoro model's vocabulary: each phoneme symbol's token id, from the pack's `vocab.json`
/// (`{"vocab": {"a": 43, …}}`, or the map alone).
public enum KokoroVocabulary {
    /// Why a vocabulary cannot be used.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    public static func parse(_ text: String) -> Result<[Unicode.Scalar: Int64], Problem> {
        let root: JSONValue
        do {
            root = try JSONReader.value(of: text)
        } catch {
            return .failure(Problem("not JSON: \(error)"))
        }
        guard case .object(var members) = root.kind else { return .failure(Problem("not a JSON object")) }
        if let vocab = members.first(where: { $0.key == "vocab" }) {
            guard case .object(let inner) = vocab.value.kind else {
                return .failure(Problem("line \(vocab.value.line): vocab is not an object"))
            }
            members = inner
        }
        var map: [Unicode.Scalar: Int64] = [:]
        for member in members {
            let scalars = Array(member.key.unicodeScalars)
            guard scalars.count == 1 else {
                return .failure(Problem("line \(member.value.line): \(JSONWriter.quoted(member.key)) is not one character"))
            }
            guard let number = member.value.number, number >= 0, number < 65536, number == number.rounded() else {
                return .failure(Problem("line \(member.value.line): the id of \(JSONWriter.quoted(member.key)) is not a whole number 0…65535"))
            }
            map[scalars[0]] = Int64(number)
        }
        guard !map.isEmpty else { return .failure(Problem("it has no symbols")) }
        return .success(map)
    }
}

/// What a Kokoro voice's name says: its first letter the language (`j` Japanese, `a` American
/// English, `b` British English, `e` Spanish, `f` French, `h` Hindi, `i` Italian, `p` Brazilian
/// Portuguese, `z` Mandarin), its second the gender (`f`, `m`): `jf_alpha`.
public struct KokoroVoiceName: Equatable, Sendable {
    /// The BCP 47 tag of its language.
    public var language: String
    /// The espeak-ng voice whose phonemes it reads in that language (Japanese is read by Utter's
    /// own kana table instead).
    public var espeakVoice: String

    public init?(_ name: String) {
        guard let first = name.first else { return nil }
        switch first {
        case "j": (language, espeakVoice) = ("ja-JP", "ja")
        case "a": (language, espeakVoice) = ("en-US", "en-us")
        case "b": (language, espeakVoice) = ("en-GB", "en-gb")
        case "e": (language, espeakVoice) = ("es", "es")
        case "f": (language, espeakVoice) = ("fr-FR", "fr-fr")
        case "h": (language, espeakVoice) = ("hi", "hi")
        case "i": (language, espeakVoice) = ("it", "it")
        case "p": (language, espeakVoice) = ("pt-BR", "pt-br")
        case "z": (language, espeakVoice) = ("zh-CN", "cmn")
        default: return nil
        }
    }

    /// Whether the voice reads Japanese, through the kana table.
    public var readsKana: Bool { language.hasPrefix("ja") }
}

extension KokoroVocabulary {
    /// Kokoro v1.0's vocabulary (its 114 symbols and their token ids) as a `vocab.json`, for a
    /// model given without one: every Kokoro v1.0 model and voice pack reads these.
    public static let kokoroV1 = #"""
{"vocab": {";": 1, ":": 2, ",": 3, ".": 4, "!": 5, "?": 6, "—": 9, "…": 10, "\"": 11, "(": 12, ")": 13, "“": 14, "”": 15, " ": 16, "̃": 17, "ʣ": 18, "ʥ": 19, "ʦ": 20, "ʨ": 21, "ᵝ": 22, "ꭧ": 23, "A": 24, "I": 25, "O": 31, "Q": 33, "S": 35, "T": 36, "W": 39, "Y": 41, "ᵊ": 42, "a": 43, "b": 44, "c": 45, "d": 46, "e": 47, "f": 48, "h": 50, "i": 51, "j": 52, "k": 53, "l": 54, "m": 55, "n": 56, "o": 57, "p": 58, "q": 59, "r": 60, "s": 61, "t": 62, "u": 63, "v": 64, "w": 65, "x": 66, "y": 67, "z": 68, "ɑ": 69, "ɐ": 70, "ɒ": 71, "æ": 72, "β": 75, "ɔ": 76, "ɕ": 77, "ç": 78, "ɖ": 80, "ð": 81, "ʤ": 82, "ə": 83, "ɚ": 85, "ɛ": 86, "ɜ": 87, "ɟ": 90, "ɡ": 92, "ɥ": 99, "ɨ": 101, "ɪ": 102, "ʝ": 103, "ɯ": 110, "ɰ": 111, "ŋ": 112, "ɳ": 113, "ɲ": 114, "ɴ": 115, "ø": 116, "ɸ": 118, "θ": 119, "œ": 120, "ɹ": 123, "ɾ": 125, "ɻ": 126, "ʁ": 128, "ɽ": 129, "ʂ": 130, "ʃ": 131, "ʈ": 132, "ʧ": 133, "ʊ": 135, "ʋ": 136, "ʌ": 138, "ɣ": 139, "ɤ": 140, "χ": 142, "ʎ": 143, "ʒ": 147, "ʔ": 148, "ˈ": 156, "ˌ": 157, "ː": 158, "ʰ": 162, "ʲ": 164, "↓": 169, "→": 171, "↗": 172, "↘": 173, "ᵻ": 177}}
"""#
}
