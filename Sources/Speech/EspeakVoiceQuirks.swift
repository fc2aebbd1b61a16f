public import Voices

/// What Utter corrects in the voice list of a libespeak-ng release, where a voice reads its own
/// language badly and another voice reads it well.
public enum EspeakVoiceQuirks {
    /// The Mandarin voice that reads Han correctly, and to which ChineseReading's pinyin goes.
    public static let mandarinPinyinVoice = "sit/cmn-Latn-pinyin"

    /// `voices` as Utter lists and chooses them for libespeak-ng `version`.
    ///
    /// In 1.51 the `cmn` voice sends the pinyin its own dictionary makes for Han characters to
    /// English, tone digits included (你好: "ni three hao three"), while `cmn-Latn-pinyin`, which
    /// differs only in reading Latin letters as pinyin, reads the same characters as Mandarin. So
    /// the pinyin voice is chosen for Mandarin (`zh`, `cmn`, `zh-CN`): it takes `cmn` as its first
    /// language and the place before `cmn` in the list, which wins the tie; `cmn` stays, with a note. Hakka names every Han character
    /// "Chinese letter". Later releases rewrote these rules: other versions are left as they are.
    public static func corrected(_ voices: [Voice], version: String) -> [Voice] {
        guard version.hasPrefix("1.51") else { return voices }
        var voices = voices
        for index in voices.indices where voices[index].identifier == "espeak-ng:sit/hak" {
            voices[index].note = "says \"Chinese letter\" for every Han character in espeak-ng \(version)"
        }
        guard let cmn = voices.firstIndex(where: { $0.identifier == "espeak-ng:sit/cmn" }),
            let pinyin = voices.firstIndex(where: { $0.identifier == "espeak-ng:\(mandarinPinyinVoice)" })
        else { return voices }
        var mandarin = voices[pinyin]
        var english = voices[cmn]
        english.note =
            "reads Han characters as pinyin spelled in English (\"ni three hao three\") in espeak-ng \(version); "
            + "\(mandarin.name) speaks Mandarin"
        // Both are then listed for `cmn` first: the first in the list wins the tie.
        mandarin.primaryLanguages = english.primaryLanguages + mandarin.primaryLanguages
        voices[min(cmn, pinyin)] = mandarin
        voices[max(cmn, pinyin)] = english
        return voices
    }
}
