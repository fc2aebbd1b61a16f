import Glibc
import System
import TestSupport
import Testing

// `utter voice create`, `check` and `list`, run as a user runs them, in a home of their own.

@Test func `a voice created from recordings copies each one, found by its slug or named after a tab`() throws {
    let authoring = VoiceAuthoring()
    let recordings = authoring.home + "/recordings"
    try FileSystem.createDirectories(recordings + "/takes")
    writeTone(recordings + "/hello.wav", frequency: 440, seconds: 0.5, amplitude: 9000)
    writeTone(recordings + "/takes/morning 2.wav", frequency: 660, seconds: 0.7, amplitude: 9000)
    let phrases = authoring.file("phrases.txt", "Hello\ngood morning\ttakes/morning 2.wav\n")
    let create = authoring.utter(
        "voice", "create", "Tones", "-l", "de", "--phrases", phrases, "--clips", recordings, "--into",
        authoring.home + "/Tones")
    #expect(create.status == 0, "\(create.standardError)")
    #expect(
        create.standardOutput == """
            Made the clip voice Tones (de) in ~/Tones: 2 clips copied from \(recordings).
            Hear it:  spd-say -o utter -y Tones Hello
            Check it: utter voice check \(authoring.home)/Tones

            """)
    #expect(
        readText(authoring.home + "/Tones/voice.conf") == """
            Name "Tones"
            Identifier "clips:Tones"
            PrimaryLanguage "de"
            Clip "Hello" "clips/hello.wav"
            Clip "good morning" "clips/good-morning.wav"

            """)
    #expect(readFile(authoring.home + "/Tones/clips/hello.wav") == readFile(recordings + "/hello.wav"))
    #expect(readFile(authoring.home + "/Tones/clips/good-morning.wav") == readFile(recordings + "/takes/morning 2.wav"))
    let check = authoring.utter("voice", "check", authoring.home + "/Tones")
    #expect(check.status == 0)
    #expect(check.standardOutput == "Tones (de): 2 clips, fallback espeak-ng's voice for de; no problems\n")

    // Made again with --force: the old folder is replaced as a whole, nothing of it stays.
    let again = authoring.utter(
        "voice", "create", "Tones", "-l", "de", "--phrases", authoring.file("one.txt", "hello\n"), "--clips",
        recordings, "--into", authoring.home + "/Tones", "--force")
    #expect(again.status == 0, "\(again.standardError)")
    #expect(readFile(authoring.home + "/Tones/clips/good-morning.wav") == nil)
    #expect(readFile(authoring.home + "/Tones/clips/hello.wav") == readFile(recordings + "/hello.wav"))
    #expect(try FileSystem.entries(of: authoring.home).filter { $0.hasPrefix(".Tones") } == [])
}

@Test func `check prints every problem of a broken voice at its line, and fails`() throws {
    let authoring = VoiceAuthoring()
    let folder = authoring.home + "/broken"
    mkdir(folder, 0o755)
    mkdir(folder + "/clips", 0o755)
    writeTone(folder + "/clips/hello.wav", frequency: 440, seconds: 0.3, amplitude: 9000)
    writeTone(folder + "/clips/spare.wav", frequency: 550, seconds: 0.3, amplitude: 9000)
    SoundFileContents.writeWAV([Int16](repeating: 0, count: 11025), sampleRate: 22050, to: folder + "/clips/quiet.wav")
    SoundFileContents.writeWAV([], sampleRate: 22050, to: folder + "/clips/empty.wav")
    writeFile(folder + "/clips/text.wav", "not a sound\n")
    writeFile(
        folder + "/voice.conf",
        """
        Name "Broken"
        PrimaryLanguage "en-US" "not a tag!"
        SupportedLanguages "de_DE" "x--y"
        Fallback "espeak-ng" "Nobody"
        Colour blue
        Clip "hello" "clips/hello.wav"
        Clip "Hello!" "clips/hello.wav"
        Clip "gone" "clips/gone.wav"
        Clip "quiet" "clips/quiet.wav"
        Clip "nothing" "clips/empty.wav"
        Clip "text" "clips/text.wav"
        Clip "escape" "../elsewhere.wav"
        Clip "..." "clips/hello.wav"
        Clip "open" "clips/open.wav

        """)
    let check = authoring.utter("voice", "check", folder)
    #expect(check.status == 1)
    #expect(
        check.standardOutput == """
            voice.conf:2: "not a tag!" is not a BCP 47 language tag
            voice.conf:3: "x--y" is not a BCP 47 language tag
            voice.conf:4: fallback voice "Nobody" is not an espeak-ng voice (see 'utter voices')
            voice.conf:5: unknown setting "Colour", skipped
            voice.conf:7: "Hello!" is the same phrase as line 6's; this clip is never played
            voice.conf:8: clip "clips/gone.wav" is missing
            voice.conf:9: clip "clips/quiet.wav" is silent
            voice.conf:10: clip "clips/empty.wav" is empty
            voice.conf:11: clip "clips/text.wav" cannot be played: Format not recognised.
            voice.conf:12: clip "../elsewhere.wav" is not inside the voice's folder
            voice.conf:13: "..." has no word to match
            voice.conf:14: a quoted string is not closed
            warning: clips/spare.wav is not used by any Clip line
            12 problems in \(folder)

            """)
    #expect(check.standardError == "")

    writeFile(folder + "/voice.conf", "PrimaryLanguage en\n")
    let nameless = authoring.utter("voice", "check", folder)
    #expect(nameless.status == 1)
    #expect(nameless.standardOutput == "voice.conf: it has no Name\n1 problem in \(folder)\n")
    let missing = authoring.utter("voice", "check", authoring.home + "/nowhere")
    #expect(missing.status == 1)
    #expect(
        missing.standardOutput == "\(authoring.home)/nowhere is not a folder\n1 problem in \(authoring.home)/nowhere\n")
}

@Test func `create refuses bad arguments, listing every problem, and makes nothing`() throws {
    let authoring = VoiceAuthoring()
    let usage = """
        Usage: utter voice create <name> --language <language> [--supports <supports>] --phrases <phrases> [--with-voice <with-voice>] [--clips <clips>] [--format <format>] [--into <into>] [--force]
          See 'utter voice create --help' for more information.

        """
    let phrases = authoring.file("phrases.txt", "hello\n")
    for (arguments, message) in [
        (
            ["../up", "-l", "en"],
            "'../up' cannot name a voice: use 1 to 100 characters, no '/' or control characters, no '.' first and no spaces at either end."
        ),
        (["Bell", "-l", "en US"], "'en US' is not a BCP 47 language tag; try one like 'en-US' or 'de'."),
        (
            ["Bell", "-l", "en", "--supports", "de,fr-"],
            "'fr-' is not a BCP 47 language tag; try one like 'en-US' or 'de'."
        ),
        (
            ["Bell", "-l", "en", "--clips", authoring.home, "--with-voice", "German"],
            "Give --with-voice or --clips, not both: clips are either spoken by a voice or copied from recordings."
        ),
        (["Bell", "-l", "en", "--format", "mp3"], "--format must be flac or wav."),
    ] {
        let run = ChildProcess.run(
            [utterPath, "voice", "create"] + arguments + ["--phrases", phrases],
            environment: ["PATH=/usr/bin:/bin", "LANG=C.UTF-8", "HOME=\(authoring.home)"])
        #expect(run.status == 64)
        #expect(run.standardError == "Error: \(message)\n" + usage)
    }

    let recordings = authoring.home + "/recordings"
    mkdir(recordings, 0o755)
    writeTone(recordings + "/hello.wav", frequency: 440, seconds: 0.3, amplitude: 9000)
    writeTone(recordings + "/two.wav", frequency: 440, seconds: 0.3, amplitude: 9000)
    writeFile(recordings + "/two.flac", "")
    SoundFileContents.writeWAV([Int16](repeating: 0, count: 2205), sampleRate: 22050, to: recordings + "/quiet.wav")
    let list = authoring.file("list.txt", "hello\nquiet\n!!!\nmissing\nHello.\ntwo\nthree\tnone.wav\nfour\ta\tb\n")
    try FileSystem.createDirectories(authoring.voices + "/Bell")
    let refused = authoring.utter("voice", "create", "Bell", "-l", "en", "--phrases", list, "--clips", recordings)
    #expect(refused.status == 1)
    #expect(
        refused.standardError == """
            Error: No voice was made:
            \(list):2: recording \(recordings)/quiet.wav is silent
            \(list):3: "!!!" has no word to match
            \(list):4: no recording of "missing" in \(recordings): call it missing.wav (or .flac, .ogg…) or name it after a tab
            \(list):5: "Hello." is the same phrase as line 1's
            \(list):6: "two" has 2 recordings in \(recordings) (two.wav, two.flac); name one after a tab
            \(list):7: recording \(recordings)/none.wav is missing
            \(list):8: more than one tab; write the phrase, one tab, then its recording
            ~/.local/share/utter/voices/Bell exists; give --force to replace it

            """)
    let empty = authoring.utter(
        "voice", "create", "Other", "-l", "en", "--phrases", authoring.file("empty.txt", "# nothing yet\n\n"))
    #expect(empty.status == 1)
    #expect(empty.standardError == "Error: No voice was made:\n\(authoring.home)/empty.txt holds no phrase\n")
    let spoken = authoring.utter(
        "voice", "create", "Other", "-l", "en", "--phrases", authoring.file("named.txt", "hi\thi.wav\n"))
    #expect(spoken.status == 1)
    #expect(
        spoken.standardError
            == "Error: No voice was made:\n\(authoring.home)/named.txt:1: names a recording, but the clips are spoken; use --clips FOLDER\n"
    )
    let unreadable = authoring.utter("voice", "create", "Other", "-l", "en", "--phrases", authoring.home + "/none.txt")
    #expect(unreadable.status == 1)
    #expect(
        unreadable.standardError
            == "Error: Cannot read the phrases file '\(authoring.home)/none.txt': No such file or directory.\n")
    let unknown = authoring.utter(
        "voice", "create", "Other", "-l", "en", "--phrases", phrases, "--with-voice", "Nobody")
    #expect(unknown.status == 1)
    #expect(
        unknown.standardError == "Error: No voice is called 'Nobody'. Speaker.voices (or 'utter voices') lists them.\n")
    let taken = authoring.utter("voice", "create", "german", "-l", "de", "--phrases", phrases)
    #expect(taken.status == 1)
    #expect(
        taken.standardError
            == "Error: No voice was made:\nthe espeak-ng voice \"German\" (espeak-ng:gmw/de) has that name; choose another\n"
    )
    // Nothing made, nothing left behind: only the folder that was there.
    #expect(try FileSystem.entries(of: authoring.voices) == ["Bell"])
}

@Test func `voice list prints what voices prints`() {
    let authoring = VoiceAuthoring()
    let list = authoring.utter("voice", "list", "-l", "de")
    let voices = authoring.utter("voices", "-l", "de")
    #expect(list.status == 0 && list.standardOutput == voices.standardOutput)
    #expect(list.standardOutput.contains("German  ") && list.standardOutput.contains("espeak-ng:gmw/de"))
}
