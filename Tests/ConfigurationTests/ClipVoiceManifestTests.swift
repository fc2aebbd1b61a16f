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

@Test func `a written manifest reads back into the same voice, quotes, backslashes and all scripts intact`() throws {
    var manifest = ClipVoiceManifest(
        name: "Greeter \"Ada\" \\ 1", identifier: "org.example.greeter", primaryLanguages: ["en-US", "en-GB"])
    manifest.supportedLanguages = ["de", "ja"]
    manifest.fallback = .espeak("English (America)")
    manifest.clips = [
        .init(phrase: "hello", file: "clips/hello.flac", lineNumber: 6),
        .init(phrase: "say \"cheese\"", file: "clips/say-cheese.wav", lineNumber: 7),
        .init(phrase: "back\\slash # not a comment", file: "clips/back slash.wav", lineNumber: 8),
        .init(phrase: "grüß Gott, Ærøskøbing", file: "clips/grüß-gott.flac", lineNumber: 9),
        .init(phrase: "こんにちは", file: "clips/こんにちは.flac", lineNumber: 10),
        .init(phrase: "  spaced  ", file: "clips/spaced.flac", lineNumber: 11),
    ]
    #expect(
        manifest.text == """
            Name "Greeter \\"Ada\\" \\\\ 1"
            Identifier "org.example.greeter"
            PrimaryLanguage "en-US" "en-GB"
            SupportedLanguages "de" "ja"
            Fallback "espeak-ng" "English (America)"
            Clip "hello" "clips/hello.flac"
            Clip "say \\"cheese\\"" "clips/say-cheese.wav"
            Clip "back\\\\slash # not a comment" "clips/back slash.wav"
            Clip "grüß Gott, Ærøskøbing" "clips/grüß-gott.flac"
            Clip "こんにちは" "clips/こんにちは.flac"
            Clip "  spaced  " "clips/spaced.flac"

            """)
    let (read, issues) = ClipVoiceManifest.parse(manifest.text)
    #expect(issues.isEmpty)
    #expect(try read.get() == manifest)
}

@Test func `the default fallback is written as no line, none as none`() throws {
    var manifest = ClipVoiceManifest(name: "Bell", identifier: "clips:Bell", primaryLanguages: ["de"])
    #expect(manifest.text == "Name \"Bell\"\nIdentifier \"clips:Bell\"\nPrimaryLanguage \"de\"\n")
    #expect(try ClipVoiceManifest.parse(manifest.text).manifest.get() == manifest)
    manifest.fallback = .none
    #expect(manifest.text.hasSuffix("PrimaryLanguage \"de\"\nFallback none\n"))
    #expect(try ClipVoiceManifest.parse(manifest.text).manifest.get() == manifest)
}

@Test(arguments: ["", "\"", "\\", "\\\"", "a\"b\\c", "#", "\t tab", "\r", "emoji 🎉 é"])
func `any single-line value is quoted so that the parser reads it back unchanged`(value: String) {
    let (entries, issues) = DotconfParser.parse("Key \(DotconfParser.quoted(value)) \(DotconfParser.quoted(value))")
    #expect(issues.isEmpty)
    #expect(entries == [DotconfEntry(key: "Key", arguments: [value, value], lineNumber: 1)])
}
