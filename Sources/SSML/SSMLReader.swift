/// A piece of SSML as the tolerant reader sees it.
public enum SSMLToken: Equatable, Sendable {
    /// Text with entities and character references decoded.
    case text(String)
    /// `<name attributes>` or, with `isSelfClosing`, `<name attributes/>`.
    case startTag(name: String, attributes: [SSMLAttribute], isSelfClosing: Bool)
    case endTag(name: String)
}

/// One attribute of a tag, value decoded.
public struct SSMLAttribute: Equatable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Reads SSML the way speech-dispatcher delivers it: tags, entities, and whatever else clients
/// send. Never fails: a `<` that starts no tag is text, an unknown entity stays as written,
/// comments, processing instructions and DOCTYPE declarations are skipped (entities they declare
/// are never expanded).
public enum SSMLReader {
    /// The text content of `source`: its text, markup left out, entities decoded.
    public static func textContent(of source: String) -> String {
        var text = ""
        for case .text(let piece) in SSMLTokens(source) { text += piece }
        return text
    }

    /// The tokens of `source`, adjacent text merged (``SSMLTokens`` reads them one at a time).
    public static func tokens(of source: String) -> [SSMLToken] {
        Array(SSMLTokens(source))
    }
}
