import Glibc
import System
import TestSupport
import Testing

/// A folder of clip voices inside the rig: "Greeter" says "hello" and "good morning" with two
/// tones, everything else with espeak-ng's American English.
private struct ClipRig: ~Copyable {
    let rig = CaptureRig()
    var voices: String { rig.folder + "/voices" }
    var greeter: String { voices + "/greeter" }
    var configuration: String { rig.folder + "/utter.conf" }

    init(fallback: String = "Fallback \"espeak-ng\" \"English (America)\"", extraClips: String = "") {
        mkdir(rig.folder + "/voices", 0o755)
        mkdir(rig.folder + "/voices/greeter", 0o755)
        writeTone(rig.folder + "/voices/greeter/hello.wav", frequency: 441, seconds: 0.5, amplitude: 12000)
        writeTone(rig.folder + "/voices/greeter/good-morning.wav", frequency: 882, seconds: 0.7, amplitude: 9000)
        writeFile(
            rig.folder + "/voices/greeter/voice.conf",
            """
            Name "Greeter"
            Identifier "org.example.greeter"
            PrimaryLanguage "en-US"
            SupportedLanguages "en-GB"
            \(fallback)
            Clip "hello" "hello.wav"
            Clip "good morning" "good-morning.wav"
            \(extraClips)

            """)
        writeFile(rig.folder + "/utter.conf", "VoiceFolder \"\(rig.folder)/voices\"\n")
    }

    /// Starts the module; `boundByPermissions` as for `ModuleProcess`.
    func start(boundByPermissions: Bool = false) throws -> ModuleProcess {
        try startModule(rig, configurationPath: configuration, boundByPermissions: boundByPermissions)
    }

    /// The samples of one of the voice's clips as the module plays them (22,050 Hz, unscaled).
    func clip(_ name: String) -> [Int16] {
        littleEndianSamples(readFile(greeter + "/" + name) ?? [], from: 44)
    }

    /// What the module played, and where in it the greeter's two clips are heard, sample for sample.
    func heard() -> (samples: [Int16], hello: Int?, morning: Int?) {
        let samples = rig.samples()
        return (
            samples, position(of: clip("hello.wav"), in: samples), position(of: clip("good-morning.wav"), in: samples)
        )
    }
}

/// Where `clip` occurs, sample for sample, in `samples`.
func position(of clip: [Int16], in samples: [Int16]) -> Int? {
    guard clip.count > 100, samples.count >= clip.count else { return nil }
    let probe = Array(clip[1..<9])
    var start = 0
    while start + clip.count <= samples.count {
        if samples[start + 1] == probe[0], Array(samples[(start + 1)..<(start + 9)]) == probe,
            samples[start..<(start + clip.count)].elementsEqual(clip)
        {
            return start
        }
        start += 1
    }
    return nil
}

private let greeterSettings = settingsBlock(synthesisVoice: "Greeter")

@Test func `a clip voice is listed under each of its languages and selected by name or identifier`() throws {
    let clips = ClipRig()
    let module = try clips.start()
    module.send("LIST VOICES en-GB\n")
    let list = try #require(module.expect("200 OK VOICE LIST SENT\n"))
    #expect(list.contains("200-Greeter (recorded) [en-GB]\ten-GB\tnone\n"), "\(list)")
    module.send("LIST VOICES en-US\n")
    #expect(try #require(module.expect("200 OK VOICE LIST SENT\n")).contains("200-Greeter (recorded)\ten-US\tnone\n"))
    speak(module, "<speak>hello</speak>", settings: settingsBlock(synthesisVoice: "org.example.greeter"))
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    let found = position(of: clips.clip("hello.wav"), in: clips.rig.samples())
    #expect(found != nil, "the clip is played sample for sample")
    #expect(clips.rig.log.contains("clip voice \"Greeter\" from \(clips.greeter): 2 phrases"), "\(clips.rig.log)")
}

@Test func `phrases play their clips in order, the rest is spoken by the fallback, marks arrive in order`() throws {
    let clips = ClipRig()
    let module = try clips.start()
    speak(
        module,
        "<speak>Hello <mark name=\"a\"/>Anna. Good <mark name=\"w\"/>  morning<mark name=\"b\"/> to you.</speak>",
        settings: greeterSettings)
    #expect(
        module.expect("702 END\n")
            == "701 BEGIN\n700-a\n700 INDEX MARK\n700-w\n700 INDEX MARK\n700-b\n700 INDEX MARK\n702 END\n")
    #expect(module.quit() == 0)
    let (samples, helloAt, morningAt) = clips.heard()
    let hello = try #require(helloAt)
    let morning = try #require(morningAt)
    #expect(hello < morning)
    // "Anna." between the clips and "to you." after them are spoken by espeak-ng.
    let between = samples[(hello + clips.clip("hello.wav").count)..<morning]
    #expect(between.count > 4000 && rootMeanSquare(between) > 500, "\(between.count) samples at \(rootMeanSquare(between)) between the clips")
    let after = samples[(morning + clips.clip("good-morning.wav").count)...]
    #expect(after.count > 4000 && rootMeanSquare(after) > 500, "\(after.count) samples at \(rootMeanSquare(after)) after the clips")
}

@Test func `without a fallback only the clips are heard`() throws {
    let clips = ClipRig(fallback: "Fallback none")
    let module = try clips.start()
    speak(module, "<speak>Well, hello there. Good morning!</speak>", settings: greeterSettings)
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    // A character or key no clip says is not heard either, but ends as any message does.
    speak(module, "x", command: "CHAR", settings: greeterSettings)
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    speak(module, "shift_a", command: "KEY", settings: greeterSettings)
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    let (samples, helloAt, morningAt) = clips.heard()
    let hello = clips.clip("hello.wav")
    let morning = clips.clip("good-morning.wav")
    #expect(helloAt == 0)
    #expect(morningAt == hello.count)
    #expect(samples.count == hello.count + morning.count, "\(samples.count) samples")
}

@Test func `broken voices are left out with a reason, good ones and the espeak-ng voices stay`() throws {
    let clips = ClipRig(
        extraClips:
            "Clip \"goodbye\" \"goodbye.wav\"\nClip \"escape\" \"../../etc/passwd\"\nClip \"welcome\" \"welcome\"")
    let folder = clips.voices
    mkdir(clips.greeter + "/welcome", 0o755)
    mkdir(folder + "/nameless", 0o755)
    writeFile(folder + "/nameless/voice.conf", "PrimaryLanguage en\nClip \"x\" \"x.wav\"\n")
    mkdir(folder + "/impostor", 0o755)
    writeFile(folder + "/impostor/voice.conf", "Name \"English (America)\"\nPrimaryLanguage en\n")
    mkdir(folder + "/folder-manifest", 0o755)
    mkdir(folder + "/folder-manifest/voice.conf", 0o755)
    mkdir(folder + "/badlanguage", 0o755)
    writeFile(folder + "/badlanguage/voice.conf", "Name \"Odd\"\nPrimaryLanguage \"not a tag!\"\n")
    writeFile(
        clips.configuration,
        "VoiceFolder \"\(folder)\"\nVoiceFolder \"\(clips.rig.folder)/missing\"\nVoiceFolder \"\(clips.configuration)\"\n"
    )
    let module = try clips.start()
    module.send("LIST VOICES\n")
    let list = try #require(module.expect("200 OK VOICE LIST SENT\n"))
    #expect(list.contains("200-Greeter (recorded)\ten-US\tnone\n"))
    #expect(list.contains("200-English (America)\ten-US\tnone\n"))
    #expect(!list.contains("Odd"))
    // "goodbye" has no clip: the fallback says it; the missing clip was reported at start.
    speak(module, "<speak>Goodbye.</speak>", settings: greeterSettings)
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    #expect(rootMeanSquare(clips.rig.samples()) > 500)
    let log = clips.rig.log
    for expected in [
        "\(folder)/greeter/voice.conf: line 8: clip \"goodbye.wav\" cannot be read (No such file or directory); \"goodbye\" is spoken by the fallback voice",
        "\(folder)/greeter/voice.conf: line 9: clip \"../../etc/passwd\" is not inside the voice's folder, skipped",
        "\(folder)/greeter/voice.conf: line 10: clip \"welcome\" cannot be read (not a regular file); \"welcome\" is spoken by the fallback voice",
        "clip voice at \(folder)/nameless left out: \(folder)/nameless/voice.conf: it has no Name",
        "clip voice at \(folder)/impostor left out: its name \"English (America)\"",
        "clip voice at \(folder)/badlanguage left out: \(folder)/badlanguage/voice.conf: no valid PrimaryLanguage",
        "voice folder \(clips.rig.folder)/missing cannot be read (No such file or directory); its voices are left out",
        "voice folder \(clips.configuration) cannot be read (Not a directory); its voices are left out",
    ] {
        #expect(log.contains(expected), "log lacks: \(expected)")
    }
    #expect(!log.contains("folder-manifest"), "a folder named voice.conf is no manifest: not a voice, nothing to say")
}

@Test func `a clip cut short while in use plays what it holds, an unreadable one is spoken by the fallback`() throws {
    let clips = ClipRig()
    let module = try clips.start()
    let helloPath = clips.greeter + "/hello.wav"
    let full = clips.clip("hello.wav")
    speak(module, "<speak>hello</speak>", settings: greeterSettings)
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    // Cut to half its samples behind the module's back; the header still announces all of them.
    #expect(truncate(helloPath, off_t(44 + full.count)) == 0)
    speak(module, "<speak>hello</speak>", settings: greeterSettings)
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    // Cut inside the header: no audio at all. The word is spoken instead.
    #expect(truncate(helloPath, 20) == 0)
    speak(module, "<speak>hello</speak>", settings: greeterSettings)
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    let samples = clips.rig.samples()
    let fullAt = position(of: full, in: samples)
    #expect(fullAt == 0)
    let half = Array(full.prefix(full.count / 2))
    let halfAt = position(of: half, in: Array(samples[full.count...]))
    #expect(halfAt == 0, "the half that is left plays next")
    let spoken = samples[(full.count + half.count)...]
    #expect(spoken.count > 4000 && rootMeanSquare(spoken) > 500, "the fallback says hello: \(spoken.count) samples")
    let log = clips.rig.log
    #expect(
        log.contains(
            "\(helloPath) is cut short (its header announces more audio than it holds); playing the 249 ms it has"),
        "\(log)")
    #expect(log.contains("audio \"\(helloPath)\" not played: "), "\(log)")
    #expect(log.contains("speaking its fallback text"))
}

@Test func `a voice folder that disappears while the module runs leaves the fallback speaking`() throws {
    let clips = ClipRig()
    let module = try clips.start()
    speak(module, "<speak>hello</speak>", settings: greeterSettings)
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(rename(clips.voices, clips.rig.folder + "/gone") == 0)
    speak(module, "<speak>good morning</speak>", settings: greeterSettings)
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    speak(module, "<speak>Still here.</speak>")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    let samples = clips.rig.samples()
    let hello = clips.clip("hello.wav").count
    #expect(samples.count > hello + 8000 && rootMeanSquare(samples[hello...]) > 500)
    #expect(clips.rig.log.contains("audio \"\(clips.greeter)/good-morning.wav\" not played"), "\(clips.rig.log)")
}

@Test func `voices closed by their permissions are reported, and a voices folder closed while in use comes back`()
    throws
{
    let clips = ClipRig(extraClips: "Clip \"goodbye\" \"goodbye.wav\"")
    let folder = clips.voices
    writeTone(clips.greeter + "/goodbye.wav", frequency: 330, seconds: 0.3, amplitude: 9000)
    for name in ["locked", "sealed"] {
        mkdir(folder + "/" + name, 0o755)
        writeFile(folder + "/\(name)/voice.conf", "Name \"\(name)\"\nPrimaryLanguage en\n")
    }
    #expect(chmod(folder + "/locked/voice.conf", 0) == 0)
    #expect(chmod(folder + "/sealed", 0) == 0)
    #expect(chmod(clips.greeter + "/goodbye.wav", 0) == 0)
    defer { _ = system("chmod -R u+rwX '\(clips.rig.folder)'") }
    let module = try clips.start(boundByPermissions: true)
    module.send("LIST VOICES\n")
    let list = try #require(module.expect("200 OK VOICE LIST SENT\n"))
    #expect(list.contains("200-Greeter (recorded)\ten-US\tnone\n") && !list.contains("locked") && !list.contains("sealed"))
    speak(module, "<speak>hello</speak>", settings: greeterSettings)
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    // Closed while the voice is in use: its clips cannot be opened, the fallback says them.
    #expect(chmod(folder, 0) == 0)
    speak(module, "<speak>good morning</speak>", settings: greeterSettings)
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    module.send("LIST VOICES en-US\n")
    let closed = try #require(module.expect("200 OK VOICE LIST SENT\n"))
    #expect(!closed.contains("Greeter") && closed.contains("200-English (America)\ten-US\tnone\n"))
    // Opened again: listed, and its clips play.
    #expect(chmod(folder, 0o755) == 0)
    module.send("LIST VOICES en-US\n")
    #expect(try #require(module.expect("200 OK VOICE LIST SENT\n")).contains("200-Greeter (recorded)\ten-US\tnone\n"))
    speak(module, "<speak>good morning</speak>", settings: greeterSettings)
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    let (samples, helloAt, heardMorning) = clips.heard()
    #expect(helloAt == 0)
    let morningAt = try #require(heardMorning)
    #expect(
        morningAt + clips.clip("good-morning.wav").count == samples.count,
        "the clip is heard last, once the folder is open again")
    let spoken = samples[clips.clip("hello.wav").count..<morningAt]
    #expect(spoken.count > 4000 && rootMeanSquare(spoken) > 500, "the fallback says good morning: \(spoken.count) samples")
    let log = clips.rig.log
    for expected in [
        "\(folder)/greeter/voice.conf: line 8: clip \"goodbye.wav\" cannot be read (Permission denied); \"goodbye\" is spoken by the fallback voice",
        "clip voice at \(folder)/locked left out: \(folder)/locked/voice.conf cannot be read (Permission denied)",
        "clip voice at \(folder)/sealed left out: \(folder)/sealed/voice.conf cannot be read (Permission denied)",
        "audio \"\(clips.greeter)/good-morning.wav\" not played: ",
        "voice folder \(folder) cannot be read (Permission denied); its voices are left out",
    ] {
        #expect(log.contains(expected), "log lacks: \(expected)\n\(log)")
    }
}

@Test func `a clip voice installed, changed or removed while the module runs shows in the next voice list`() throws {
    let clips = ClipRig()
    let hello = clips.clip("hello.wav")
    let moved = clips.rig.folder + "/greeter-elsewhere"
    #expect(rename(clips.greeter, moved) == 0)
    let module = try clips.start()
    module.send("LIST VOICES en-US\n")
    #expect(try #require(module.expect("200 OK VOICE LIST SENT\n")).contains("Greeter") == false)
    // Installed: listed at once, and chosen by its name.
    #expect(rename(moved, clips.greeter) == 0)
    module.send("LIST VOICES en-US\n")
    #expect(try #require(module.expect("200 OK VOICE LIST SENT\n")).contains("200-Greeter (recorded)\ten-US\tnone\n"))
    speak(module, "<speak>hello</speak>", settings: greeterSettings)
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    // Renamed in its manifest.
    writeFile(
        clips.greeter + "/voice.conf", "Name \"Welcomer\"\nPrimaryLanguage \"en-US\"\nClip \"hello\" \"hello.wav\"\n")
    module.send("LIST VOICES en-US\n")
    let renamed = try #require(module.expect("200 OK VOICE LIST SENT\n"))
    #expect(renamed.contains("200-Welcomer (recorded)\ten-US\tnone\n") && !renamed.contains("Greeter"))
    // Removed: gone from the list; a message asking for it gets the default voice.
    #expect(system("rm -rf '\(clips.greeter)'") == 0)
    module.send("LIST VOICES en-US\n")
    #expect(try #require(module.expect("200 OK VOICE LIST SENT\n")).contains("Welcomer") == false)
    speak(module, "<speak>hello</speak>", settings: settingsBlock(synthesisVoice: "Welcomer"))
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    let found = position(of: hello, in: clips.rig.samples())
    #expect(found == 0, "the clip voice spoke once it was installed")
    #expect(clips.rig.log.contains("voice folders changed: 1 clip voices"), "\(clips.rig.log)")
    #expect(clips.rig.log.contains("voice folders changed: 0 clip voices"))
}

@Test func `a voice created while sd_utter runs is checked clean, listed at once, and plays its clips`() throws {
    let authoring = VoiceAuthoring()
    // A voice still being made, in a hidden folder as create makes it, is not read.
    try FileSystem.createDirectories(authoring.voices + "/.Hidden.utter-new-x")
    writeFile(authoring.voices + "/.Hidden.utter-new-x/voice.conf", "Name \"Hidden\"\nPrimaryLanguage en-US\n")
    let module = try startModule(authoring.rig)
    module.send("LIST VOICES en-US\n")
    let before = try #require(module.expect("200 OK VOICE LIST SENT\n"))
    #expect(!before.contains("Greeter") && !before.contains("Hidden"))

    let phrases = authoring.file("phrases.txt", "# Greetings\nhello\n\nGood morning!\n")
    let create = authoring.utter(
        "voice", "create", "Greeter", "--language", "en-US", "--supports", "en-GB", "--phrases", phrases,
        "--with-voice", "English (America)")
    #expect(create.status == 0, "\(create.standardError)")
    let folder = authoring.voices + "/Greeter"
    #expect(
        create.standardOutput == """
            Made the clip voice Greeter (en-US, en-GB) in ~/.local/share/utter/voices/Greeter: 2 clips spoken by English (America).
            Hear it:  spd-say -o utter -y Greeter hello
            Check it: utter voice check \(folder)

            """)
    #expect(
        readText(folder + "/voice.conf") == """
            Name "Greeter"
            Identifier "clips:Greeter"
            PrimaryLanguage "en-US"
            SupportedLanguages "en-GB"
            Fallback "espeak-ng" "English (America)"
            Clip "hello" "clips/hello.flac"
            Clip "Good morning!" "clips/good-morning.flac"

            """)
    let check = authoring.utter("voice", "check", folder)
    #expect(check.status == 0)
    #expect(check.standardOutput == "Greeter (en-US, en-GB): 2 clips, fallback English (America); no problems\n")

    let morning = try #require(SoundFileContents(path: folder + "/clips/good-morning.flac"))
    #expect(morning.container == "flac" && morning.sampleRate == 22050 && morning.channels == 1)
    #expect(morning.duration > 0.4 && rootMeanSquare(morning.samples) > 500, "\(morning.duration) s")

    // No restart: the next voice list has it, and a message in it plays the clip sample for sample.
    module.send("LIST VOICES en-US\n")
    let after = try #require(module.expect("200 OK VOICE LIST SENT\n"))
    #expect(after.contains("200-Greeter (recorded)\ten-US\tnone\n") && !after.contains("Hidden"))
    speak(module, "<speak>Anna, good morning.</speak>", settings: settingsBlock(synthesisVoice: "Greeter"))
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    let samples = authoring.rig.samples()
    let found = try #require(position(of: morning.samples, in: samples), "the clip is heard")
    #expect(found > 4000 && rootMeanSquare(samples[..<found]) > 500, "\"Anna\" is spoken first, by the fallback")
    #expect(authoring.rig.log.contains("voice folders changed: 1 clip voices"), "\(authoring.rig.log)")
}
