import Glibc
import Speech
import TestSupport
import Testing
import Voices

/// Language switching as speech-dispatcher and a user meet it: through the module protocol, with
/// utter.conf's `LanguageSwitching`, and through `utter say`.
@Suite struct LanguageSwitchingModuleTests {
    private static let mixed = "Meeting with 田中さん at 3 PM and Ольга"

    /// The captured sound of one message spoken by a fresh module with `configuration`, and its events.
    private func spoken(_ ssml: String, configuration: String, language: String = "en-US") throws -> (
        events: String?, samples: [Int16], log: String
    ) {
        let rig = CaptureRig()
        writeFile(rig.folder + "/utter.conf", configuration)
        let module = try startModule(rig, configurationPath: rig.folder + "/utter.conf")
        speak(module, ssml, settings: settingsBlock(language: language))
        let events = module.expect("702 END\n")
        #expect(module.quit() == 0)
        return (events, rig.samples(), rig.log)
    }

    @Test func `the module speaks a Japanese name and a Russian one inside English, marks in order, and off keeps one voice`()
        throws
    {
        let ssml = "<speak>Meeting with <mark name=\"a\"/>田中さん<mark name=\"b\"/> at 3 PM and Ольга</speak>"
        let switched = try spoken(ssml, configuration: "")
        #expect(switched.events == "701 BEGIN\n700-a\n700 INDEX MARK\n700-b\n700 INDEX MARK\n702 END\n")
        let single = try spoken(ssml, configuration: "LanguageSwitching off\n")
        #expect(single.events == "701 BEGIN\n700-a\n700 INDEX MARK\n700-b\n700 INDEX MARK\n702 END\n")
        // The English voice names every letter it cannot read ("Japanese letter", "Cyrillic ...").
        #expect(
            Double(single.samples.count) > 1.3 * Double(switched.samples.count),
            "\(single.samples.count) samples with one voice, \(switched.samples.count) switched")
        #expect(rootMeanSquare(switched.samples) > 500)
    }

    @Test func `without a Japanese dictionary the module says once what to install and still speaks`() throws {
        let rig = CaptureRig()
        writeFile(rig.folder + "/utter.conf", "JapaneseDictionary \"\(rig.folder)/no-such-dictionary\"\n")
        let module = try startModule(rig, configurationPath: rig.folder + "/utter.conf")
        for _ in 0..<2 {
            speak(module, "<speak>それでは発表します。</speak>", settings: settingsBlock(language: "ja"))
            #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        }
        #expect(module.quit() == 0)
        let spelled = rig.samples()
        let lines = rig.log.split(separator: "\n").filter { $0.contains("No MeCab dictionary") }
        #expect(lines.count == 1, "\(rig.log)")
        #expect(lines.first?.contains("sudo apt install mecab-ipadic-utf8") == true)
        // With the dictionary the same two sentences are read, far shorter than spelled.
        let read = try spoken("<speak>それでは発表します。</speak>", configuration: "", language: "ja")
        #expect(read.events == "701 BEGIN\n702 END\n")
        #expect(
            Double(spelled.count) / 2 > 1.5 * Double(read.samples.count),
            "\(spelled.count / 2) samples spelled, \(read.samples.count) read")
    }

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
}

/// Mandarin through espeak-ng 1.51's voices: chosen as the pinyin voice, read as pinyin words.
@Suite struct MandarinTests {
    @Test func `the pinyin voice speaks Mandarin, and cmn keeps a note saying why`() throws {
        let pinyin = Voice(
            name: "Chinese (Mandarin, latin as Pinyin)", identifier: "espeak-ng:sit/cmn-Latn-pinyin",
            primaryLanguages: [Voice.Language(tag: LanguageTag("cmn-Latn-pinyin")!, priority: 5)],
            supportedLanguages: [Voice.Language(tag: LanguageTag("zh")!, priority: 5)],
            kind: .espeak(engineName: "sit/cmn-Latn-pinyin"))
        let english = Voice(
            name: "Chinese (Mandarin, latin as English)", identifier: "espeak-ng:sit/cmn",
            primaryLanguages: [Voice.Language(tag: LanguageTag("cmn")!, priority: 5)],
            supportedLanguages: [Voice.Language(tag: LanguageTag("zh")!, priority: 5)],
            kind: .espeak(engineName: "sit/cmn"))
        let corrected = EspeakVoiceQuirks.corrected([english, pinyin], version: "1.51")
        #expect(corrected.map(\.identifier) == ["espeak-ng:sit/cmn-Latn-pinyin", "espeak-ng:sit/cmn"])
        #expect(corrected[1].note?.contains("ni three hao three") == true && corrected[0].note == nil)
        let catalogue = VoiceCatalogue(voices: corrected)
        for language in ["zh", "cmn", "zh-CN"] {
            #expect(catalogue.voice(forLanguage: language)?.identifier == "espeak-ng:sit/cmn-Latn-pinyin", "\(language)")
        }
        // Other releases are taken as they are.
        #expect(EspeakVoiceQuirks.corrected([english, pinyin], version: "1.52.0") == [english, pinyin])
    }

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
