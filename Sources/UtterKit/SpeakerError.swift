/// Why a ``Speaker`` cannot be made, or an utterance not spoken, with what to do about it.
public enum SpeakerError: Error, Equatable, CustomStringConvertible {
    /// libespeak-ng could not start.
    case engineUnavailable(String)
    /// The audio device could not be opened; `reason` is ALSA's, with what to try.
    case deviceUnavailable(device: String, reason: String)
    /// The sound file could not be created.
    case fileNotWritable(path: String, reason: String)
    /// No voice has that name or identifier.
    case unknownVoice(String)
    /// No voice is installed at all.
    case noVoices

    public var description: String {
        switch self {
        case .engineUnavailable(let reason):
            "The speech engine cannot start: \(reason). Only one Speaker can exist in a process at a time."
        case .deviceUnavailable(_, let reason):
            "\(reason) (Or render to a sound file instead.)"
        case .fileNotWritable(let path, let reason):
            "Cannot write '\(path)': \(reason)."
        case .unknownVoice(let name):
            "No voice is called '\(name)'. Speaker.voices (or 'utter voices') lists them."
        case .noVoices:
            "No voice is installed: install the espeak-ng-data package."
        }
    }
}
