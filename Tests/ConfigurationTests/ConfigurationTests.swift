import Configuration
import Glibc
import Testing

@Test func `dotconf lines are split into keys and arguments`() {
    let (entries, issues) = DotconfParser.parse(
        """
        # comment
        DefaultVoice "English (America)"   # trailing comment
          AudioDevice plughw:0
        Name "say \\"hi\\""

        """)
    #expect(issues.isEmpty)
    #expect(
        entries == [
            DotconfEntry(key: "DefaultVoice", arguments: ["English (America)"], lineNumber: 2),
            DotconfEntry(key: "AudioDevice", arguments: ["plughw:0"], lineNumber: 3),
            DotconfEntry(key: "Name", arguments: ["say \"hi\""], lineNumber: 4),
        ])
}

@Test func `an unclosed quote is reported with its line and skipped`() {
    let (entries, issues) = DotconfParser.parse("A 1\nB \"open\nC 3\n")
    #expect(entries.map(\.key) == ["A", "C"])
    #expect(issues == [ConfigurationIssue(lineNumber: 2, message: "a quoted string is not closed")])
}

@Test func `the module configuration reads every key and reports bad lines`() {
    let (configuration, issues) = UtterConfiguration.parse(
        """
        defaultvoice "German"
        DefaultLanguage de-DE
        AudioDevice "utter_capture"
        AudioPeriodMilliseconds 10
        AudioBufferPeriods 6
        MinimumRate 100
        NormalRate 200
        MaximumRate 500
        VoiceTypeVariant "female1" "f3"
        VoiceTypeVariant "robot" "klatt"
        AudioPeriodMilliseconds "fast"
        Frobnicate yes
        LogLevel 5
        AudioBackend Pulse
        AudioBackend jack
        """)
    #expect(configuration.defaultVoice == "German")
    #expect(configuration.defaultLanguage == "de-DE")
    #expect(configuration.audioDevice == "utter_capture")
    #expect(configuration.periodMilliseconds == 10)
    #expect(configuration.bufferPeriods == 6)
    #expect(configuration.minimumRate == 100 && configuration.normalRate == 200 && configuration.maximumRate == 500)
    #expect(configuration.voiceTypeVariants["female1"] == "f3")
    #expect(configuration.logLevel == 5)
    #expect(configuration.audioBackend == .pulse)
    #expect(issues.map(\.lineNumber) == [10, 11, 12, 15])
    #expect(issues.last?.message == #"AudioBackend needs one of auto, pipewire, pulse, alsa, got "jack""#)
}

@Test func `an empty or missing configuration gives the defaults`() {
    let (configuration, issues) = UtterConfiguration.parse("")
    #expect(configuration == UtterConfiguration())
    #expect(issues.isEmpty)
}

@Test func `inconsistent rates fall back to the defaults with one issue`() {
    let (configuration, issues) = UtterConfiguration.parse("MinimumRate 300\nNormalRate 200\n")
    #expect(configuration.minimumRate == UtterConfiguration().minimumRate)
    #expect(issues.count == 1)
}

@Test func `MaximumRate takes 300 to 1500 words a minute, for every voice kind`() {
    #expect(UtterConfiguration.parse("MaximumRate 900\n").configuration.maximumRate == 900)
    #expect(UtterConfiguration.parse("MaximumRate 1500\n").configuration.maximumRate == 1500)
    #expect(UtterConfiguration.parse("MaximumRate 300\n").configuration.maximumRate == 300)
    for bad in ["250", "1501", "fast"] {
        let (configuration, issues) = UtterConfiguration.parse("MaximumRate \(bad)\n")
        #expect(configuration.maximumRate == 450)
        #expect(
            issues.map(\.message) == ["MaximumRate needs words per minute from 300 to 1500, got \"\(bad)\""],
            "\(issues)")
    }
}

@Test func `the shipped utter.conf reads cleanly, with every example uncommented too`() throws {
    let path = String(#filePath.dropLast("Tests/ConfigurationTests/ConfigurationTests.swift".count)) + "conf/utter.conf"
    let text = try #require(readWholeFile(path), "cannot open \(path)")
    let (shipped, shippedIssues) = UtterConfiguration.parse(text)
    #expect(shippedIssues.isEmpty)
    #expect(shipped == UtterConfiguration(), "the shipped file only documents the defaults")
    // The commented examples are the defaults, spelled out: uncommented, they must read the same.
    let uncommented = text.split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0.hasPrefix("#") && $0.dropFirst().first?.isLetter == true ? String($0.dropFirst()) : String($0) }
        .joined(separator: "\n")
    let (examples, issues) = UtterConfiguration.parse(uncommented)
    #expect(issues.isEmpty, "\(issues)")
    #expect(examples.defaultVoice == "English (America)")
    #expect(examples.languageVoices == ["en-us": "English (America)"])
    #expect(examples.neuralEchoFallsBack && examples.neuralEchoMilliseconds == 80)
    #expect(examples.audioDevice == "default")
    #expect(examples.voiceTypeVariants == UtterConfiguration().voiceTypeVariants)
    #expect(examples.normalRate == UtterConfiguration().normalRate)
    #expect(examples.periodMilliseconds == UtterConfiguration().periodMilliseconds)
}

/// The text of the file at `path`, or nil when it cannot be opened.
func readWholeFile(_ path: String) -> String? {
    guard let file = fopen(path, "re") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    while case let byte = fgetc(file), byte != EOF { bytes.append(UInt8(byte)) }
    return String(decoding: bytes, as: UTF8.self)
}

@Test func `language switching is on by default, can be turned off, and its languages are checked`() {
    #expect(UtterConfiguration().languageSwitching && UtterConfiguration().hanLanguage == nil)
    #expect(UtterConfiguration().latinLanguage == "en")
    let (configuration, issues) = UtterConfiguration.parse(
        """
        LanguageSwitching off
        HanLanguage yue
        LatinLanguage "en-GB"
        LanguageSwitching sometimes
        HanLanguage "漢"
        LatinLanguage
        """)
    #expect(!configuration.languageSwitching)
    #expect(configuration.hanLanguage == "yue" && configuration.latinLanguage == "en-GB")
    #expect(
        issues.map(\.message) == [
            #"LanguageSwitching needs auto or off, got "sometimes""#,
            #"HanLanguage needs one language tag (ja, zh, yue), got "漢""#,
            "LatinLanguage needs one language tag (en), got ",
        ])
    #expect(issues.map(\.lineNumber) == [4, 5, 6])
}

@Test func `the neural voice keys are read, and bad values named`() {
    let (configuration, issues) = UtterConfiguration.parse(
        """
        OnnxRuntimeLibrary "/opt/onnxruntime/lib/libonnxruntime.so.1.20.1"
        NeuralThreads 2
        NeuralThreads 0
        OnnxRuntimeLibrary
        NeuralVoicesLoaded 2
        NeuralIdleSeconds 30
        NeuralVoicesLoaded 0
        NeuralIdleSeconds soon
        """)
    #expect(configuration.onnxRuntimeLibrary == "/opt/onnxruntime/lib/libonnxruntime.so.1.20.1")
    #expect(configuration.neuralThreads == 2)
    #expect(configuration.neuralVoicesLoaded == 2)
    #expect(configuration.neuralIdleSeconds == 30)
    #expect(
        issues.map(\.message) == [
            #"NeuralThreads needs a number of threads from 1 to 64, got "0""#,
            "OnnxRuntimeLibrary needs one library path, got ",
            #"NeuralVoicesLoaded needs a number of models from 1 to 16, got "0""#,
            #"NeuralIdleSeconds needs a number of seconds from 0 to 86400, got "soon""#,
        ])
    #expect(issues.map(\.lineNumber) == [3, 4, 7, 8])
}

@Test func `LanguageVoice, NeuralEcho and NeuralEchoMilliseconds are read, and bad values named`() {
    let defaults = UtterConfiguration()
    #expect(defaults.languageVoices.isEmpty && defaults.neuralEchoFallsBack && defaults.neuralEchoMilliseconds == 80)
    let (configuration, issues) = UtterConfiguration.parse(
        """
        LanguageVoice ja_JP "jf alpha"
        LanguageVoice en-US joe
        LanguageVoice "not a tag" joe
        LanguageVoice de
        NeuralEcho same
        NeuralEcho sometimes
        NeuralEchoMilliseconds 120
        NeuralEchoMilliseconds -5
        """)
    #expect(configuration.languageVoices == ["ja-jp": "jf alpha", "en-us": "joe"])
    #expect(!configuration.neuralEchoFallsBack)
    #expect(configuration.neuralEchoMilliseconds == 120)
    #expect(
        issues.map(\.message) == [
            #"LanguageVoice needs a language tag and a voice name, got "not a tag" "joe""#,
            #"LanguageVoice needs a language tag and a voice name, got "de""#,
            #"NeuralEcho needs auto or same, got "sometimes""#,
            #"NeuralEchoMilliseconds needs milliseconds from 0 to 10000, got "-5""#,
        ])
    #expect(issues.map(\.lineNumber) == [3, 4, 6, 8])
}

@Test func `HistorySize reads 0 to 10000 and names a bad value`() {
    #expect(UtterConfiguration().historySize == 50)
    #expect(UtterConfiguration.parse("HistorySize 0\n").configuration.historySize == 0)
    #expect(UtterConfiguration.parse("HistorySize 200\n").configuration.historySize == 200)
    for bad in ["-1", "10001", "many", "5 6"] {
        let (configuration, issues) = UtterConfiguration.parse("HistorySize \(bad)\n")
        #expect(configuration.historySize == 50)
        let quoted = bad.split(separator: " ").map { "\"\($0)\"" }.joined(separator: " ")
        #expect(
            issues == [
                ConfigurationIssue(
                    lineNumber: 1, message: "HistorySize needs a number of messages from 0 to 10000, got \(quoted)")
            ])
    }
}

@Test func `capital pitch rise is off by default, read in percent, and bad values are reported`() {
    #expect(UtterConfiguration().capitalPitchRise == 0)
    let (configuration, issues) = UtterConfiguration.parse(
        """
        CapitalPitchRise 20
        CapitalPitchRise 3
        CapitalPitchRise 81
        CapitalPitchRise high
        CapitalPitchRise -5
        """)
    #expect(configuration.capitalPitchRise == 20)
    #expect(issues.map(\.lineNumber) == [2, 3, 4, 5])
    #expect(issues.first?.message == #"CapitalPitchRise needs 0 (off) or a rise in percent from 5 to 80, got "3""#)
    #expect(UtterConfiguration.parse("CapitalPitchRise 0\nCapitalPitchRise 80").configuration.capitalPitchRise == 80)
    #expect(UtterConfiguration.parse("CapitalPitchRise 5").configuration.capitalPitchRise == 5)
}
