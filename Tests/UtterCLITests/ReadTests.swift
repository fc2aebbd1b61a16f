import Glibc
import TestSupport
import Testing

/// `utter read`: long texts sentence by sentence, in a pipe, into files and on a terminal.
@Suite struct ReadTests {
    private var utter: String { utterPath }

    private static let story = """
        The first sentence is about a quick brown fox that jumps over the lazy dog.

        The second one tells how Mr. Smith walked slowly home across the wide green fields.
        The third and last sentence ends the story here.
        """

    /// A home whose ALSA device `utter_paced` plays on a private PulseAudio's null sink, in real time.
    private func home(pacedBy pulse: PrivateSoundServer, in folder: TemporaryFolder) -> [String] {
        let sink = "type pulse server \"unix:\(pulse.socket)\" device \"utter_null\""
        writeFile(folder.file(".asoundrc"), "pcm.utter_paced { \(sink) }\n")
        return ["HOME=\(folder.path)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8", "TERM=xterm-256color"]
    }

    @Test func `a rendered reading is its sentences back to back, in the voice of the text's language`() throws {
        let folder = TemporaryFolder()
        let environment = ["HOME=\(folder.path)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"]
        let sentence = "Das ist z. B. ein Test."
        writeFile(folder.file("text.txt"), "\(sentence)\n\n\(sentence)\n\(sentence)\n")
        let run = ChildProcess.run(
            ["/bin/sh", "-c", "'\(utter)' read -o '\(folder.file("all.wav"))' - < '\(folder.file("text.txt"))'"],
            environment: environment)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == String(repeating: sentence + "\n", count: 3))
        let say = ChildProcess.run(
            [utter, "say", "-l", "de", "-o", folder.file("one.wav"), sentence], environment: environment)
        #expect(say.status == 0, "\(say.standardError)")
        let one = try #require(SoundFileContents(path: folder.file("one.wav"))).samples
        let whole = try #require(SoundFileContents(path: folder.file("all.wav"))).samples
        // The voice the text's language chose is German's: the first sentence is the same, sample for sample.
        #expect(whole.prefix(one.count).elementsEqual(one))
        // Nothing between sentences but the voice's own silences: the silence around each join is
        // the sentence's trailing silence and its leading one, to the sample. (The sentences
        // themselves differ by a few hundred samples: espeak-ng's pauses vary with what it said before.)
        let audible = one.indices.filter { abs(Int32(one[$0])) >= 300 }
        let (first, last) = (try #require(audible.first), try #require(audible.last))
        let voiceSilence = first + (one.count - 1 - last)
        let silences = quietRuns(whole)
        for join in [one.count, 2 * one.count] {
            let silence = try #require(silences.first { $0.contains(join) }, "no silence at sample \(join)")
            #expect(silence.count == voiceSilence, "\(silence.count) silent samples, \(voiceSilence) alone")
        }
    }

    @Test func `Markdown is read as its text, one line per sentence in a pipe`() {
        let folder = TemporaryFolder()
        writeFile(
            folder.file("notes.md"),
            "# Notes\n\nRead [the guide](https://example.org) *today*.\n\n```\ncode()\n```\n- One item\n- Two items\n")
        let run = ChildProcess.run(
            [utter, "read", "-o", folder.file("notes.wav"), folder.file("notes.md")],
            environment: ["HOME=\(folder.path)", "PATH=/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "Notes\nRead the guide today.\nOne item\nTwo items\n")
    }

    @Test func `a sentence over several lines is shown and spoken as one line`() {
        let folder = TemporaryFolder()
        writeFile(folder.file("lines.txt"), "  A sentence that runs\nover two lines,\tand a tab.\n\nThe  next   one.\n")
        let run = ChildProcess.run(
            [utter, "read", "-o", folder.file("lines.wav"), folder.file("lines.txt")],
            environment: ["HOME=\(folder.path)", "PATH=/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "A sentence that runs over two lines, and a tab.\nThe next one.\n")
    }

    @Test func `bad input is refused with a message`() {
        let folder = TemporaryFolder()
        writeFile(folder.file("short.txt"), "One. Two.")
        writeFile(folder.file("empty.md"), "```\nonly code\n```\n")
        let environment = ["HOME=\(folder.path)", "PATH=/usr/bin:/bin"]
        let cases: [([String], Int32, String)] = [
            (
                ["--from", "3", folder.file("short.txt")], 1,
                "Error: --from 3: '\(folder.file("short.txt"))' has 2 sentences.\n"
            ),
            (["--from", "0", folder.file("short.txt")], 64, "Error: --from counts sentences from 1.\n"),
            (
                [folder.file("missing.txt")], 1,
                "Error: Cannot read '\(folder.file("missing.txt"))': No such file or directory.\n"
            ),
            ([folder.path], 1, "Error: Cannot read '\(folder.path)': Is a directory.\n"),
            ([folder.file("empty.md")], 1, "Error: '\(folder.file("empty.md"))' has nothing to read.\n"),
            (["/bin/sh"], 1, "Error: '/bin/sh' is not UTF-8 text: it holds NUL bytes.\n"),
        ]
        for (arguments, status, message) in cases {
            let run = ChildProcess.run([utter, "read"] + arguments, environment: environment)
            #expect(run.status == status, "\(arguments)")
            #expect(run.standardError.hasPrefix(message), "\(arguments): \(run.standardError)")
        }
    }

    @Test
    func
        `on a terminal the sentence shows with the word heard highlighted, n skips, q quits and the next reading resumes`()
        throws
    {
        let folder = TemporaryFolder()
        let pulse = try PrivateSoundServer(runtime: folder.file("pulse"))
        let environment = home(pacedBy: pulse, in: folder)
        writeFile(folder.file("story.txt"), Self.story)
        let command = "cd '\(folder.path)' && '\(utter)' read --device utter_paced story.txt"
        let session = try TerminalSession(command: command, environment: environment, columns: 60, rows: 10)
        defer { session.close() }
        #expect(session.waitFor("sentence 1 of 3"))
        // A word in reverse video, of the first sentence.
        #expect(session.waitUntil { _ in session.screen(escapes: true).contains("\u{1B}[7m") })
        #expect(session.screen().hasPrefix("sentence 1 of 3\nThe first sentence is about a quick brown fox that jumps"))
        session.send("n")
        #expect(session.waitFor("sentence 2 of 3"))
        #expect(session.screen().hasPrefix("sentence 2 of 3\nThe second one tells how Mr. Smith walked slowly home"))
        #expect(session.waitUntil { _ in session.screen(escapes: true).contains("\u{1B}[7m") })
        session.send("q")
        #expect(session.exitStatus() == 0)
        #expect(session.screen().hasSuffix("\n[exit 0]"))
        let places = storedPlaces(folder)
        try #require(places.count == 1, "\(places)")
        #expect(places[0].hasPrefix("1 "), "\(places)")
        session.close()

        // The next reading starts at the second sentence; p goes back to the first.
        let again = try TerminalSession(command: command, environment: environment, columns: 60, rows: 10)
        defer { again.close() }
        #expect(again.waitFor("sentence 2 of 3"))
        again.send("p")
        #expect(again.waitFor("sentence 1 of 3"))
        again.send("q")
        #expect(again.exitStatus() == 0)
    }

    @Test
    func
        `space pauses and resumes, --from starts anywhere, Ctrl-C quits with the terminal restored and the place kept in XDG_STATE_HOME`()
        throws
    {
        let folder = TemporaryFolder()
        let pulse = try PrivateSoundServer(runtime: folder.file("pulse"))
        writeFile(folder.file("story.txt"), Self.story)
        // After utter: the terminal's line editing and echo, as stty reports them.
        let session = try TerminalSession(
            command: """
                cd '\(folder.path)' && '\(utter)' read --device utter_paced --from 3 story.txt; status=$?
                stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo; (exit $status)
                """,
            environment: home(pacedBy: pulse, in: folder) + ["XDG_STATE_HOME=\(folder.path)/state"], columns: 60,
            rows: 10)
        defer { session.close() }
        #expect(session.waitFor("sentence 3 of 3"))
        #expect(session.waitUntil { _ in session.screen(escapes: true).contains("\u{1B}[7m") })
        session.send("Space")
        #expect(session.waitFor("sentence 3 of 3 (paused)"))
        session.send("Space")
        #expect(session.waitUntil { $0.hasPrefix("sentence 3 of 3\n") })
        session.send("C-c")
        #expect(session.exitStatus() == 0)
        #expect(session.screen().hasSuffix("\nicanon\necho\n[exit 0]"), "\(session.screen())")
        let places = storedPlaces(folder, in: "state/utter/read")
        #expect(places.count == 1 && places[0].hasPrefix("2 "), "\(places)")
    }

    @Test func `the highlight follows the words in the order they are spoken, and finishing forgets the place`() throws
    {
        let folder = TemporaryFolder()
        let pulse = try PrivateSoundServer(runtime: folder.file("pulse"))
        let environment = home(pacedBy: pulse, in: folder)
        let text = "The quick brown fox jumps over the lazy dog. Then it sleeps."
        writeFile(folder.file("fox.txt"), text)
        let recording = try MonitorRecording(pulse: pulse, path: folder.file("heard.raw"))
        let session = try TerminalSession(
            command: "cd '\(folder.path)' && '\(utter)' read --device utter_paced fox.txt", environment: environment,
            columns: 80, rows: 10)
        defer { session.close() }
        var highlighted: [String] = []
        var audibleAtWord: [Int] = []  // how much had been heard when each word was seen highlighted
        _ = session.waitUntil(seconds: 30) { _ in
            let screen = session.screen(escapes: true)
            if let word = Self.highlightedWord(in: screen), word != highlighted.last {
                highlighted.append(word)
                audibleAtWord.append(recording.samplesSoFar().count { abs(Int32($0)) >= 300 })
            }
            return screen.contains("[exit ")
        }
        let heard = recording.finish()
        #expect(session.exitStatus() == 0)
        // In the order spoken: each one seen comes later in the text than the one before.
        let words = text.split(whereSeparator: { !$0.isLetter }).map(String.init)
        var position = 0
        for word in highlighted {
            let found = words[position...].firstIndex(of: word)
            #expect(found != nil, "\(highlighted)")
            position = (found ?? position) + 1
        }
        try #require(highlighted.count >= 4, "\(highlighted)")
        // Shown as heard: more of the sentence had been heard at each later word.
        #expect(zip(audibleAtWord, audibleAtWord.dropFirst()).allSatisfy { $0 <= $1 }, "\(audibleAtWord)")
        let last = try #require(audibleAtWord.last)
        #expect(last > audibleAtWord[1], "\(audibleAtWord)")
        #expect(heard.count { abs(Int32($0)) >= 300 } > last)
        #expect(storedPlaces(folder) == [])
    }

    @Test func `the highlight is the whole word of the text, never the piece the engine says`() throws {
        let folder = TemporaryFolder()
        let pulse = try PrivateSoundServer(runtime: folder.file("pulse"))
        let environment = home(pacedBy: pulse, in: folder)
        // Markdown's inline code is read as its code; espeak-ng says "It", "s", "9", "15", "S".
        writeFile(folder.file("memo.md"), "It's 9:15 at `S.H.I.E.L.D.` headquarters, in the e-mail.\n")
        let session = try TerminalSession(
            command: "cd '\(folder.path)' && '\(utter)' read --device utter_paced memo.md", environment: environment,
            columns: 80, rows: 10)
        defer { session.close() }
        var highlighted: [String] = []
        _ = session.waitUntil(seconds: 30) { _ in
            let screen = session.screen(escapes: true)
            if let start = screen.firstRange(of: "\u{1B}[7m"),
                let end = screen[start.upperBound...].firstRange(of: "\u{1B}[")
            {
                let word = String(screen[start.upperBound..<end.lowerBound])
                if word != highlighted.last { highlighted.append(word) }
            }
            return screen.contains("[exit ")
        }
        #expect(session.exitStatus() == 0)
        let words = ["It's", "9:15", "at", "S.H.I.E.L.D", "headquarters", "in", "the", "e-mail"]
        #expect(!highlighted.isEmpty && highlighted.allSatisfy(words.contains), "\(highlighted)")
        // Seen in order, and the initialism, spelt for over a second, seen whole.
        let order = highlighted.compactMap { words.firstIndex(of: $0) }
        #expect(zip(order, order.dropFirst()).allSatisfy { $0 < $1 }, "\(highlighted)")
        #expect(highlighted.contains("S.H.I.E.L.D"), "\(highlighted)")
    }

    @Test func `through the user's speech-dispatcher every sentence is read, one after the other`() throws {
        let user = UserSetupTests.User(withDevice: false)
        let pulse = try PrivateSoundServer(runtime: user.home + "/pulse")
        writeFile(user.home + "/story.txt", Self.story)
        let recording = try MonitorRecording(pulse: pulse, path: user.home + "/heard.raw")
        // The server speech-dispatcher starts for the user plays on the private PulseAudio.
        let run = ChildProcess.run(
            [utter, "read", "--server", "--module", "espeak-ng", user.home + "/story.txt"],
            environment: user.environment + ["PULSE_SERVER=unix:\(pulse.socket)"], timeout: 120)
        let heard = recording.finish().count { abs(Int32($0)) >= 300 }
        #expect(run.status == 0, "\(run.standardError)")
        // Heard whole: about as much sound as Utter's own reading of the text (measured: 1.17 times
        // as much; 0.75 times when each sentence cut off the one before).
        let rendered = ChildProcess.run(
            [utter, "read", "-o", user.home + "/story.wav", user.home + "/story.txt"], environment: user.environment)
        #expect(rendered.status == 0, "\(rendered.standardError)")
        let own = try #require(SoundFileContents(path: user.home + "/story.wav")).samples.count {
            abs(Int32($0)) >= 300
        }
        #expect(heard > own * 9 / 10, "\(heard) audible samples heard, \(own) in Utter's own reading")
        #expect(
            run.standardOutput == """
                The first sentence is about a quick brown fox that jumps over the lazy dog.
                The second one tells how Mr. Smith walked slowly home across the wide green fields.
                The third and last sentence ends the story here.

                """)
    }

    /// The places `utter read` keeps in `subfolder` of the home `folder`, a record a file.
    private func storedPlaces(_ folder: TemporaryFolder, in subfolder: String = ".local/state/utter/read") -> [String] {
        let places = folder.file(subfolder)
        let names = ChildProcess.run(["/bin/ls", places]).standardOutput.split(separator: "\n")
        return names.map { readText(places + "/" + $0) }
    }

    /// The word between the reverse-video escapes on a captured screen.
    private static func highlightedWord(in screen: String) -> String? {
        guard let start = screen.firstRange(of: "\u{1B}[7m") else { return nil }
        let rest = screen[start.upperBound...]
        guard let end = rest.firstRange(of: "\u{1B}[") else { return nil }
        return String(rest[..<end.lowerBound].filter(\.isLetter))
    }
}
