import TestSupport
import Testing

/// Language switching as a user meets it, through `utter say`.
@Suite struct SayLanguageTests {
    @Test func `utter say gives each part its voice, as long as the parts said alone, and --no-switch one voice`()
        throws
    {
        let folder = TemporaryFolder()
        let mixed = try saidLength(["Meeting with たなかさん at three"], in: folder, name: "mixed")
        let parts = [
            try saidLength(["Meeting with"], in: folder, name: "first"),
            try saidLength(["-l", "ja", "たなかさん"], in: folder, name: "name"),
            try saidLength(["at three"], in: folder, name: "last"),
        ]
        let alone = parts.reduce(0, +)
        #expect(abs(mixed / alone - 1) <= 0.15, "\(mixed) s mixed, \(parts) s alone")
        let single = try saidLength(["--no-switch", "Meeting with たなかさん at three"], in: folder, name: "single")
        #expect(single > 1.3 * mixed, "\(single) s with one voice, \(mixed) s switched")
    }

    /// Mandarin through espeak-ng 1.51's voices: chosen as the pinyin voice, read as pinyin words.
    @Test func `Han text in Chinese lasts as long as its pinyin read by the pinyin voice, not spelled in English`()
        throws
    {
        let folder = TemporaryFolder()
        let han = try saidLength(["-l", "zh", "我们明天去银行。"], in: folder, name: "han")
        let written = try saidLength(
            ["-v", "Chinese (Mandarin, latin as Pinyin)", "wo3men5 ming2tian1 qu4 yin2hang2."], in: folder, name: "pinyin")
        let english = try saidLength(["-v", "Chinese (Mandarin, latin as English)", "我们明天去银行。"], in: folder, name: "cmn")
        #expect(abs(han / written - 1) <= 0.1, "\(han) s from Han, \(written) s from pinyin")
        #expect(english > 1.2 * han, "\(english) s through the cmn voice")
    }
}

/// The length of the sound of `utter say ARGUMENTS -o FILE`, the silence at its end left out.
private func saidLength(_ arguments: [String], in folder: TemporaryFolder, name: String) throws -> Double {
    let output = folder.file(name + ".wav")
    let run = ChildProcess.run([utterPath, "say", "-o", output] + arguments)
    #expect(run.status == 0, "\(run.standardError)")
    let file = try #require(SoundFileContents(path: output))
    let last = file.samples.lastIndex { abs(Int($0)) > 200 } ?? 0
    return Double(last + 1) / Double(file.sampleRate)
}
