import Glibc
import OnnxRuntime
import System
import TestSupport
import Testing

/// `utter say --follow`: words shown as they are heard, on a terminal and in a pipe.
@Suite struct FollowTests {
    private var utter: String {
        String(modulePath().dropLast("sd_utter".count)) + "utter"
    }

    /// A home whose `.asoundrc` names `utter_paced`, a private PulseAudio's real-time null sink.
    private func pacedHome(_ folder: TemporaryFolder) throws -> PrivateSoundServer {
        let pulse = try PrivateSoundServer(runtime: folder.file("pulse"))
        writeFile(
            folder.file(".asoundrc"),
            "pcm.utter_paced { type pulse server \"unix:\(pulse.socket)\" device \"utter_null\" }\n")
        return pulse
    }

    private static let sentence = "The quick brown fox jumps over the lazy dog."

    /// `utter say --follow` of ``sentence`` printed its nine words in order, each with a time after
    /// the one before, spread over the sound the recording heard.
    private static func expectFollowed(_ run: ChildProcess, heard: [Int16]) throws {
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map { $0.split(separator: "\t") }
        #expect(lines.map { String($0.last ?? "") } == ["The", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog"])
        let times = lines.compactMap { Double($0.first ?? "") }
        try #require(times.count == lines.count && times.count >= 2, "\(run.standardOutput)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(times)")
        // Heard, not synthesised: the words are spread over the time the sentence takes to play
        // (synthesis takes a few milliseconds). (Not compared with the sound's own start: through
        // ALSA's pulse plugin a first word is reported while the plugin's first write stalls.)
        let audible = heard.indices.filter { abs(Int32(heard[$0])) >= 300 }
        let span = Double((audible.last ?? 0) - (audible.first ?? 0)) / 22050
        #expect(span > 1.5, "\(span) s audible")
        #expect(times.last! - times[1] > span / 2, "words from \(times[1]) s to \(times.last!) s of \(span) s")
    }

    @Test func `in a pipe every word is a line, after the time it was heard`() throws {
        let folder = TemporaryFolder()
        let pulse = try pacedHome(folder)
        let recording = try MonitorRecording(pulse: pulse, path: folder.file("heard.raw"))
        let run = ChildProcess.run(
            [utter, "say", "--follow", "--device", "utter_paced", Self.sentence],
            environment: ["HOME=\(folder.path)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"])
        let heard = recording.finish()
        try Self.expectFollowed(run, heard: heard)
    }

    @Test func `a Piper voice is followed word by word as it is heard`() throws {
        let folder = TemporaryFolder()
        let pulse = try pacedHome(folder)
        let joe = try joeVoiceFiles()
        let runtime = try installedOnnxRuntime()
        // Where `utter voice add` puts a voice.
        var path = folder.path
        for leaf in [".local", "share", "utter", "voices", "joe"] {
            path += "/" + leaf
            mkdir(path, 0o755)
        }
        symlink(joe.model, path + "/en_US-joe-medium.onnx")
        symlink(joe.config, path + "/en_US-joe-medium.onnx.json")
        let recording = try MonitorRecording(pulse: pulse, path: folder.file("heard.raw"))
        let run = ChildProcess.run(
            [utter, "say", "--follow", "-v", "joe", "--device", "utter_paced", Self.sentence],
            environment: [
                "HOME=\(folder.path)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8", "UTTER_ONNXRUNTIME=\(runtime.libraryPath)",
            ], timeout: 120)
        let heard = recording.finish()
        try Self.expectFollowed(run, heard: heard)
        // The model's speech (full scale; espeak-ng's peaks are lower), and the words spread over it (checked above).
        // A listener waits a second for the model at most: when it loads slower (a sanitizer, a
        // machine busy with forty suites), espeak-ng speaks the message and says so, and the words
        // are followed all the same.
        let peak = heard.map { abs(Int($0)) }.max() ?? 0
        if run.standardError.contains("neural voice unavailable") {
            #expect(run.standardError.contains("is still loading after"), "\(run.standardError)")
            report("FollowTests: joe's model loaded too slowly for this message: \(run.standardError)")
        } else {
            #expect(peak >= 30000, "peak \(peak): not the model's speech")
        }
    }

    @Test func `on a terminal the text appears word by word as it is heard`() throws {
        let folder = TemporaryFolder()
        let pulse = try pacedHome(folder)
        defer { withExtendedLifetime(pulse) {} }
        let session = try TerminalSession(
            command: "\(utter) say --follow --device utter_paced '\(Self.sentence)'",
            environment: ["HOME=\(folder.path)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8", "TERM=xterm-256color"])
        defer { session.close() }
        // Part of the sentence is on the screen while the rest is still to be heard.
        #expect(session.waitUntil { $0.hasPrefix("The quick") && !$0.contains("dog") })
        #expect(session.waitFor("lazy dog."))
        #expect(session.exitStatus() == 0)
        #expect(session.screen() == Self.sentence + "\n[exit 0]")
    }

    /// The follow-along app's five languages (en-US, ja-JP, es-ES, fr-FR, de-DE), Japanese with kanji
    /// followed morpheme by morpheme, and Chinese.
    @Test(arguments: [
        ("en-US", "Hello there, how are you?", ["Hello", "there", "how", "are", "you"]),
        (
            "ja-JP", "それでは発表します。今日は元気ですか。",
            ["それでは", "発表", "し", "ます", "今日", "は", "元気", "です", "か"]
        ),
        ("es-ES", "Hola, ¿cómo estás esta mañana?", ["Hola", "cómo", "estás", "esta", "mañana"]),
        ("fr-FR", "Bonjour, comment allez vous ce matin?", ["Bonjour", "comment", "allez", "vous", "ce", "matin"]),
        ("de-DE", "Guten Tag, wie geht es Ihnen?", ["Guten", "Tag", "wie", "geht", "es", "Ihnen"]),
        ("zh", "你好，世界。", ["你好", "世界"]),
    ])
    func `the five languages of a language picker are spoken and followed`(
        language: String, text: String, words: [String]
    ) throws {
        let folder = TemporaryFolder()
        writeFile(folder.file(".asoundrc"), "pcm.!default { type null }\n")
        let run = ChildProcess.run(
            [utter, "say", "--follow", "-l", language, "--rate", "fast", text],
            environment: ["HOME=\(folder.path)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.split(separator: "\n").map { String($0.split(separator: "\t").last ?? "") } == words)
        let rendered = folder.file("\(language).wav")
        let render = ChildProcess.run(
            [utter, "say", "-l", language, "-o", rendered, text], environment: ["HOME=\(folder.path)", "PATH=/usr/bin:/bin"])
        #expect(render.status == 0, "\(render.standardError)")
        let file = try #require(SoundFileContents(path: rendered))
        #expect(file.duration > 0.5 && rootMeanSquare(file.samples) > 500, "\(file.duration) s")
    }

    @Test func `rate presets and numbers change the pace, and bad ones are refused`() throws {
        let folder = TemporaryFolder()
        var durations: [String: Double] = [:]
        for rate in ["slow", "medium", "fast", "-80"] {
            let path = folder.file("\(rate).wav")
            let run = ChildProcess.run([utter, "say", "--rate=\(rate)", "-o", path, Self.sentence])
            #expect(run.status == 0, "\(run.standardError)")
            durations[rate] = try #require(SoundFileContents(path: path)).duration
        }
        #expect(durations["-80"]! > durations["slow"]!, "\(durations)")
        #expect(durations["slow"]! > durations["medium"]!, "\(durations)")
        #expect(durations["medium"]! > durations["fast"]!, "\(durations)")
        let bad = ChildProcess.run([utter, "say", "-r", "brisk", "Hi"])
        #expect(bad.status == 64)
        #expect(bad.standardError.hasPrefix("Error: The value 'brisk' is invalid for '-r <rate>'"), "\(bad.standardError)")
        let both = ChildProcess.run([utter, "say", "--follow", "-o", folder.file("x.wav"), "Hi"])
        #expect(both.status == 64)
        #expect(
            both.standardError.hasPrefix(
                "Error: --follow shows words as they are heard, and -o plays nothing: use one of them."),
            "\(both.standardError)")
        let module = ChildProcess.run([utter, "say", "--module", "espeak-ng", "Hi"])
        #expect(module.status == 64 && module.standardError.hasPrefix("Error: --module needs --server."))
    }
}
