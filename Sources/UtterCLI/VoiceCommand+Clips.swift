import SoundFiles
import System
import UtterKit
import Voices

/// Where the clips of a new voice come from: recordings, or a voice's speech.
extension UtterCommand.VoiceCommand.Create {
    /// The recording of `entry` in `folder`, or why there is none that will do.
    func recording(of entry: PhraseList.Entry, in folder: String) -> Result<String, UtterError> {
        let path: String
        if let named = entry.recording {
            path = named.hasPrefix("/") ? named : "\(folder)/\(named)"
            guard FileSystem.isRegularFile(path) else {
                return .failure(UtterError("recording \(path) is missing"))
            }
        } else {
            let found = VoiceFolderCheck.soundExtensions.map { "\(entry.slug).\($0)" }
                .filter { FileSystem.isRegularFile("\(folder)/\($0)") }
            guard found.count == 1 else {
                return .failure(
                    UtterError(
                        found.isEmpty
                            ? "no recording of \(entry.phrase.debugDescription) in \(folder): call it \(entry.slug).wav (or .flac, .ogg…) or name it after a tab"
                            : "\(entry.phrase.debugDescription) has \(found.count) recordings in \(folder) (\(found.joined(separator: ", "))); name one after a tab"
                    ))
            }
            path = "\(folder)/\(found[0])"
        }
        if let problem = VoiceFolderCheck.soundProblem(at: path) {
            return .failure(UtterError("recording \(path) \(problem)"))
        }
        return .success(path)
    }

    /// Speaks every phrase with one speaker into one file, then cuts it into a clip a phrase at the
    /// lengths the file had when each phrase finished; the voice's name, nil when none was asked for.
    /// (espeak-ng keeps some state from one phrase to the next: a clip can differ from the phrase
    /// spoken alone by a few samples, never in its start.)
    func speak(_ entries: [PhraseList.Entry], into building: String) async throws -> String? {
        let scratch = "\(building)/.spoken.wav"
        var ends: [Int] = []
        let voiceName: String?
        do {
            let speaker = try Speaker(output: .file(path: scratch))
            if let withVoice {
                let voice = try speaker.voice(named: withVoice)
                guard voice.kind == .espeakNG else {
                    throw UtterError(
                        "'\(withVoice)' is a clip voice; the phrases need an espeak-ng voice ('utter voices' lists them)."
                    )
                }
                voiceName = voice.name
            } else {
                voiceName = nil
            }
            for entry in entries {
                var utterance = Utterance(text: entry.phrase)
                utterance.voice = voiceName
                utterance.language = language
                for await event in speaker.speak(utterance) {
                    if case .cancelled = event { throw UtterError("Speech was cut off.") }
                }
                ends.append(try SoundFileInfo(path: scratch).frames)
            }
        } catch let error as SpeakerError {
            throw UtterError(error.description)
        }
        let spoken = try SoundFileStream(path: scratch)
        var start = 0
        for (entry, end) in zip(entries, ends) {
            let store = try SoundFileStore(
                path: "\(building)/clips/\(entry.slug).\(format)", sampleRate: spoken.sampleRate)
            let samples = spoken.read(frames: end - start)
            if let error = samples.withUnsafeBufferPointer({ store.append($0) }) { throw UtterError("\(error)") }
            store.close()
            start = end
        }
        try FileSystem.removeFile(scratch)
        return voiceName
    }
}
