import Glibc
import TestSupport
import Testing

/// Language switching as speech-dispatcher meets it: through the module protocol, with utter.conf's
/// `LanguageSwitching`.
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
}
