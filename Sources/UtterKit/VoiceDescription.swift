import Voices

/// A voice a ``Speaker`` can speak with.
public struct VoiceDescription: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Synthesised by libespeak-ng.
        case espeakNG
        /// Recorded clips for its phrases, the rest spoken by a fallback voice.
        case clip
        /// A neural (Piper) voice run by ONNX Runtime.
        case neural
    }

    /// The name clients and ``Utterance/voice`` use, such as `English (Great Britain)`.
    public let name: String
    /// A stable identifier, such as `espeak-ng:gmw/en-GB-x-rp`.
    public let identifier: String
    /// The language it speaks best (BCP 47).
    public let primaryLanguage: String
    /// The further languages it speaks.
    public let supportedLanguages: [String]
    public let kind: Kind
    /// What a listener should know of it, such as a script it reads badly; nil for most.
    public let note: String?
    /// The languages (of its own) it speaks when an utterance names a language and no voice: it is
    /// their best installed voice (neural before recorded before espeak-ng).
    public let defaultLanguages: [String]
}

extension VoiceDescription {
    init(_ voice: Voice, in catalogue: VoiceCatalogue) {
        self.init(
            name: voice.name, identifier: voice.identifier,
            primaryLanguage: voice.primaryLanguages.first?.tag.description ?? "und",
            supportedLanguages: (voice.primaryLanguages.dropFirst() + voice.supportedLanguages).map(\.tag.description),
            kind: {
                switch voice.kind {
                case .espeak: .espeakNG
                case .clips: .clip
                case .neural: .neural
                }
            }(), note: voice.note,
            defaultLanguages: voice.languages.map(\.tag.description).filter {
                catalogue.voice(forLanguage: $0)?.identifier == voice.identifier
            })
    }

    /// Every voice of `catalogue`, described.
    static func all(in catalogue: VoiceCatalogue) -> [VoiceDescription] {
        catalogue.voices.map { VoiceDescription($0, in: catalogue) }
    }
}
