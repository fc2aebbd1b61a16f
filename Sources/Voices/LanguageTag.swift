/// A BCP 47 language tag, compared case-insensitively (`en-US` = `en-us` = `en_US`).
public struct LanguageTag: Hashable, Sendable, CustomStringConvertible {
    /// The tag in its conventional casing: `en-US`, `cmn-Latn-pinyin`, `en-GB-x-rp`.
    public let description: String
    /// The lower-cased form used for comparisons.
    public let key: String

    /// Normalises `text` (`_` becomes `-`); nil when it is empty or has empty subtags.
    public init?(_ text: String) {
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        guard !subtags.isEmpty, subtags.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            subtags[0].allSatisfy(\.isLetter)
        else { return nil }
        var parts: [String] = []
        var privateUse = false
        for (index, subtag) in subtags.enumerated() {
            let lower = subtag.lowercased()
            if index == 0 || privateUse {
                parts.append(lower)
            } else if lower == "x" {
                privateUse = true
                parts.append(lower)
            } else if subtag.count == 2 && subtag.allSatisfy(\.isLetter) {
                parts.append(lower.uppercased())  // region
            } else if subtag.count == 4 && subtag.allSatisfy(\.isLetter) {
                parts.append(lower.prefix(1).uppercased() + lower.dropFirst())  // script
            } else {
                parts.append(lower)
            }
        }
        description = parts.joined(separator: "-")
        key = description.lowercased()
    }

    /// The language subtag alone: `en` for `en-US`.
    public var primaryLanguage: String {
        String(key.prefix { $0 != "-" })
    }

    /// The region subtag (`US` for `en-US`, `029` for `en-029`); nil when the tag names none
    /// before its private use part.
    public var region: String? {
        for subtag in description.split(separator: "-").dropFirst() {
            if subtag == "x" { return nil }
            let isLetters = subtag.count == 2 && subtag.allSatisfy(\.isLetter)
            let isDigits = subtag.count == 3 && subtag.allSatisfy(\.isNumber)
            if isLetters || isDigits { return String(subtag) }
        }
        return nil
    }

    public static func == (lhs: LanguageTag, rhs: LanguageTag) -> Bool { lhs.key == rhs.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }
}
