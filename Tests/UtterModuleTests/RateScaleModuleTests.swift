import Glibc
import System
import TestSupport
import Testing

/// Every word a clip of its own, as a recorded-word voice has; the text uses no other word.
private let words = """
    the quick brown fox jumps over lazy dog and a small cat runs past old red barn while farmer sleeps in sun
    """.split(separator: " ").map(String.init)
private let paragraph =
    "<speak>The quick brown fox jumps over the lazy dog and the small cat runs past the old red barn "
    + "while the farmer sleeps in the sun and the dog runs past the barn.</speak>"
private let paragraphWords = 32

/// Words a minute: words ÷ the seconds from the first to the last voiced sample.
private func wordsPerMinute(_ samples: [Int16], words: Int) -> Double {
    guard let first = samples.firstIndex(where: { abs(Int32($0)) > 300 }),
        let last = samples.lastIndex(where: { abs(Int32($0)) > 300 }), last > first
    else { return 0 }
    return Double(words) / (Double(last - first) / 22050) * 60
}

/// A clip voice whose every word is espeak-ng's at its normal speed, each in a WAV of its own
/// (with the silence espeak-ng puts around a lone word), in `folder`/voices/words.
private func writeWordVoice(in folder: String) throws {
    let voice = folder + "/voices/words"
    mkdir(folder + "/voices", 0o755)
    mkdir(voice, 0o755)
    var manifest = "Name \"Words\"\nPrimaryLanguage \"en-US\"\nFallback none\n"
    for word in words {
        let result = ChildProcess.run([
            "/usr/bin/espeak-ng", "-v", "en-us", "-s", "175", "-w", "\(voice)/\(word).wav", word,
        ])
        try #require(result.status == 0, "espeak-ng: \(result.standardError)")
        manifest += "Clip \"\(word)\" \"\(word).wav\"\n"
    }
    writeFile(voice + "/voice.conf", manifest)
}

/// The settings block at SSIP `rate`.
private func settings(rate: Int, synthesisVoice: String = "NULL") -> String {
    settingsBlock(synthesisVoice: synthesisVoice).split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0 == "rate=0" ? "rate=\(rate)" : String($0) }.joined(separator: "\n")
}

/// What the module plays for the paragraph with `voice` at each of `rates`, in words a minute.
private func measure(
    voice: String, rates: [Int], rig: borrowing CaptureRig, configuration: String, environment: [String] = []
) throws -> [Double] {
    var figures: [Double] = []
    for rate in rates {
        let module = try startModule(rig, configurationPath: configuration, environment: environment)
        speak(module, paragraph, settings: settings(rate: rate, synthesisVoice: voice))
        #expect(module.expect("702 END\n", within: 120) == "701 BEGIN\n702 END\n")
        #expect(module.quit() == 0)
        figures.append(wordsPerMinute(rig.samples(), words: paragraphWords))
        unlink(rig.capturePath)
    }
    return figures
}

@Suite(.serialized) struct RateScaleModuleTests {
    @Test func `at MaximumRate 900 espeak-ng, clip and neural voices speak within 20% of each other`() throws {
        let rig = CaptureRig()
        let configuration = try joeRig(rig, settings: "MaximumRate 900\nVoiceFolder \"\(rig.folder)/voices\"\n")
        try writeWordVoice(in: rig.folder)
        let environment = try onnxRuntimeEnvironment()
        let espeak = try measure(voice: "NULL", rates: [0, 50, 100], rig: rig, configuration: configuration)
        let clips = try measure(voice: "Words", rates: [0, 50, 100], rig: rig, configuration: configuration)
        let neural = try measure(
            voice: "joe", rates: [0, 50, 100], rig: rig, configuration: configuration, environment: environment)
        report("words a minute at rate 0, +50, +100: espeak-ng \(espeak), clips \(clips), neural \(neural)")
        #expect(!rig.log.contains("not played"), "\(rig.log)")
        // The scale: NormalRate 175, MaximumRate 900, so +50 is 537 and +100 is 900 nominal.
        for (name, figures) in [("espeak-ng", espeak), ("clips", clips), ("neural", neural)] {
            #expect(figures[0] < figures[1] && figures[1] < figures[2], "\(name): \(figures)")
            #expect(figures[2] / figures[0] > 3.5, "\(name) at +100 against 0: \(figures)")
        }
        let top = [espeak[2], clips[2], neural[2]]
        #expect(top.max()! / top.min()! < 1.2, "words a minute at +100: \(top)")
        #expect(top.min()! >= 900, "MaximumRate 900 reached by each: \(top)")
    }
}
