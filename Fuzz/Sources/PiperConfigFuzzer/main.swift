import Piper

/// Reads arbitrary text as a Piper voice's JSON: it must never trap, a refusal names at least
/// one problem, and a voice that reads has what synthesis relies on.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    switch PiperVoiceConfig.parse(text) {
    case .failure(let error):
        precondition(!error.problems.isEmpty && error.problems.allSatisfy { !$0.isEmpty })
    case .success(let config):
        precondition((1000...384_000).contains(config.sampleRate) && !config.espeakVoice.isEmpty)
        for symbol in [PiperVoiceConfig.padding, PiperVoiceConfig.start, PiperVoiceConfig.end] {
            precondition(config.phonemeIDs[symbol] != nil)
        }
        precondition(config.lengthScale > 0 && config.speakerCount >= 1)
        precondition(zip(config.speakers, config.speakers.dropFirst()).allSatisfy { $0.id <= $1.id })
        // The ids of any phonemes: start, pad, each known phoneme and a pad, end.
        let phonemes = Array(text.unicodeScalars.prefix(64))
        let ids = PhonemeIDs(phonemes: phonemes, map: config.phonemeIDs)
        precondition(ids.starts.count == phonemes.count && ids.starts.allSatisfy { $0 <= ids.ids.count })
        precondition(ids.ids.last == config.phonemeIDs[PiperVoiceConfig.end]?.last)
    }
    return 0
}
