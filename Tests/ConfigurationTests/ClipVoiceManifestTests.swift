import Configuration
import Testing

@Test func `a full manifest reads into its voice`() throws {
    let (result, issues) = ClipVoiceManifest.parse(
        """
        # A greeter
        Name "Greeter"
        Identifier "org.example.greeter"
        PrimaryLanguage "en-US"
        SupportedLanguages "en-GB" "en-AU"
        Fallback "espeak-ng" "en-us"
        Clip "hello" "hello.flac"
        Clip "good morning" "clips/good-morning.wav"
        """)
    #expect(issues.isEmpty)
    let manifest = try result.get()
    #expect(manifest.name == "Greeter")
    #expect(manifest.identifier == "org.example.greeter")
    #expect(manifest.primaryLanguages == ["en-US"])
    #expect(manifest.supportedLanguages == ["en-GB", "en-AU"])
    #expect(manifest.fallback == .espeak("en-us"))
    #expect(
        manifest.clips == [
            .init(phrase: "hello", file: "hello.flac", lineNumber: 7),
            .init(phrase: "good morning", file: "clips/good-morning.wav", lineNumber: 8),
        ])
}

@Test func `defaults: identifier from the name, fallback by language; none turns the fallback off`() throws {
    let plain = try ClipVoiceManifest.parse("Name \"Bell\"\nPrimaryLanguage de").manifest.get()
    #expect(plain.identifier == "clips:Bell")
    #expect(plain.fallback == .languageDefault)
    #expect(try ClipVoiceManifest.parse("Name B\nPrimaryLanguage de\nFallback None").manifest.get().fallback == .none)
}

@Test func `bad lines are skipped with their line numbers, the voice stays`() throws {
    let (result, issues) = ClipVoiceManifest.parse(
        """
        Name "Greeter"
        Name "Other"
        PrimaryLanguage en
        Clip "hello"
        Clip "" "empty.wav"
        Clip "tab\there" "tab.wav"
        Fallback "festival" "kal"
        Colour blue
        Clip "ok" "ok.wav
        Clip "fine" "fine.wav"
        """)
    let manifest = try result.get()
    #expect(manifest.name == "Greeter")
    #expect(manifest.clips.map(\.phrase) == ["fine"])
    #expect(issues.map(\.lineNumber) == [2, 4, 5, 6, 7, 8, 9])
    #expect(issues[0].description == "line 2: a second Name; keeping the first")
    #expect(issues[1].description == "line 4: Clip needs a phrase and a sound file, got \"hello\"")
    #expect(issues[5].description == "line 8: unknown setting \"Colour\", skipped")
}

@Test func `a manifest without a name or a language is no voice, and says why`() {
    #expect(ClipVoiceManifest.parse("PrimaryLanguage en").manifest == .failure(.init(description: "it has no Name")))
    #expect(
        ClipVoiceManifest.parse("Name \"X\"\nClip a a.wav").manifest
            == .failure(.init(description: "it has no PrimaryLanguage")))
    #expect(
        ClipVoiceManifest.parse("Name \"a\tb\"\nPrimaryLanguage en").manifest
            == .failure(.init(description: "it has no Name")))
    let (garbage, issues) = ClipVoiceManifest.parse("\u{0}\u{1}\"\"\"\n\u{FFFD}\u{FFFD}")
    #expect(garbage == .failure(.init(description: "it has no Name")))
    #expect(!issues.isEmpty)
}

@Test func `the shipped example manifest reads cleanly`() throws {
    let path =
        String(#filePath.dropLast("Tests/ConfigurationTests/ClipVoiceManifestTests.swift".count))
        + "conf/voice.conf.example"
    let text = try #require(readWholeFile(path))
    let (result, issues) = ClipVoiceManifest.parse(text)
    #expect(issues.isEmpty, "\(issues)")
    let manifest = try result.get()
    #expect(manifest.name == "Greeter" && manifest.fallback == .espeak("English (America)"))
    #expect(manifest.clips.map(\.file) == ["hello.wav", "good-morning.wav"])
}
