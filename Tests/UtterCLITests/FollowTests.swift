import Foundation
import Glibc
import OnnxRuntime
import System
import TestSupport
import Testing

/// `utter say --follow`: words shown as they are heard, on a terminal and in a pipe.
@Suite struct FollowTests {
    private var utter: String { utterPath }

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

    /// The follow-along app's own demo text, which it reveals token by token.
    static let demo = """
        Good morning, sir. It's currently 9:15 AM. The weather in New York is sunny with a temperature of \
        72°F. Your schedule for today includes a Stark Industries board meeting at 11 AM and a meeting with \
        S.H.I.E.L.D. at 2 PM. You have 3 unread messages from Pepper Potts. Also, it appears there's an \
        urgent communication from Nick Fury.
        """

    /// Lines of `output` split at their tab: the time, and what follows it.
    private static func timedLines(_ output: String) -> [(time: Double, text: String)] {
        output.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2, let time = Double(parts[0]) else { return nil }
            return (time, String(parts[1]))
        }
    }

    /// Times in order and spread over `speech` seconds of speech: the last in its last fifth, as
    /// it is heard, not when it was synthesised (a device that stalls can only make it later).
    private static func expectSpread(_ times: [Double], over speech: Double, _ format: String) {
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(format): \(times)")
        let last = times.last ?? 0
        #expect(last > 0.8 * speech, "\(format): last at \(last) s of \(speech) s")
    }

    @Test func `the follow-along demo is followed whole word by whole word in every format, as heard`() async throws {
        let folder = TemporaryFolder()
        let pulse = try pacedHome(folder)
        defer { withExtendedLifetime(pulse) {} }
        let environment = ["HOME=\(folder.path)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"]
        // How long the speech lasts: Utter's own rendering of it at the same rate, first sound to last.
        let rendered = folder.file("demo.wav")
        let render = ChildProcess.run(
            [utter, "say", "--rate", "fast", "-o", rendered, Self.demo], environment: environment)
        #expect(render.status == 0, "\(render.standardError)")
        let file = try #require(SoundFileContents(path: rendered))
        let audible = file.samples.indices.filter { abs(Int32(file.samples[$0])) >= 300 }
        let speech = Double((audible.last ?? 0) - (audible.first ?? 0)) / Double(file.sampleRate)
        try #require(speech > 8, "\(speech) s of speech")
        // The three formats at once, each its own process on the paced device.
        let runs = await withTaskGroup(of: (String, ChildProcess).self) { group in
            for format in ["words", "tokens", "json"] {
                group.addTask { [utter] in
                    let arguments = [utter, "say", "--follow-format", format, "--rate", "fast", "--device", "utter_paced"]
                    return (format, ChildProcess.run(arguments + [Self.demo], environment: environment, timeout: 120))
                }
            }
            return await group.reduce(into: [String: ChildProcess]()) { $0[$1.0] = $1.1 }
        }
        let tokens = Self.demo.split(separator: " ").map(String.init)
        let words = tokens.map { token in
            String(token.drop { $0.isPunctuation }.reversed().drop { $0.isPunctuation }.reversed())
        }
        #expect(words.contains("It's") && words.contains("9:15") && words.contains("72°F") && words.contains("S.H.I.E.L.D"))

        let wordRun = try #require(runs["words"])
        #expect(wordRun.status == 0, "\(wordRun.standardError)")
        let wordLines = Self.timedLines(wordRun.standardOutput)
        #expect(wordLines.map(\.text) == words)
        Self.expectSpread(wordLines.map(\.time), over: speech, "words")

        // Exactly the tokens a reveal splits the text into: the reveal is rebuilt from them alone.
        let tokenRun = try #require(runs["tokens"])
        #expect(tokenRun.status == 0, "\(tokenRun.standardError)")
        let tokenLines = Self.timedLines(tokenRun.standardOutput)
        #expect(tokenLines.map(\.text) == tokens)
        #expect(tokenLines.map(\.text).joined(separator: " ") == Self.demo)
        Self.expectSpread(tokenLines.map(\.time), over: speech, "tokens")

        let jsonRun = try #require(runs["json"])
        #expect(jsonRun.status == 0, "\(jsonRun.standardError)")
        let objects = jsonRun.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(objects.count == words.count, "\(jsonRun.standardOutput)")
        let utf16 = Array(Self.demo.utf16)
        let utf8 = Array(Self.demo.utf8)
        var times: [Double] = []
        for (object, word) in zip(objects, words) {
            let range16 = object["utf16"] as? [Int] ?? []
            let range8 = object["bytes"] as? [Int] ?? []
            #expect(object["word"] as? String == word)
            #expect(range16.count == 2 && String(decoding: utf16[range16[0]..<range16[1]], as: UTF16.self) == word)
            #expect(range8.count == 2 && String(decoding: utf8[range8[0]..<range8[1]], as: UTF8.self) == word)
            times.append(object["time"] as? Double ?? -1)
        }
        Self.expectSpread(times, over: speech, "json")
    }

    @Test func `a clip voice's words are followed as its clips and its fallback voice say them`() throws {
        let folder = TemporaryFolder()
        let pulse = try pacedHome(folder)
        defer { withExtendedLifetime(pulse) {} }
        var path = folder.path
        for leaf in [".local", "share", "utter", "voices", "greeter"] {
            path += "/" + leaf
            mkdir(path, 0o755)
        }
        writeTone(path + "/good-morning.wav", frequency: 441, seconds: 0.8, amplitude: 9000)
        writeFile(
            path + "/voice.conf",
            """
            Name "Greeter"
            Identifier "org.example.greeter"
            PrimaryLanguage "en-US"
            Fallback "espeak-ng" "English (America)"
            Clip "good morning sir" "good-morning.wav"

            """)
        let text = "Good morning sir. It's 9:15 at S.H.I.E.L.D."
        let run = ChildProcess.run(
            [utter, "say", "--follow", "-v", "Greeter", "--device", "utter_paced", text],
            environment: ["HOME=\(folder.path)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = Self.timedLines(run.standardOutput)
        #expect(lines.map(\.text) == ["Good", "morning", "sir", "It's", "9:15", "at", "S.H.I.E.L.D"])
        let times = lines.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(times)")
        // The clip's three words over its 0.8 s at their share of its phrase (0, 0.25 and 0.65 s),
        // the fallback's after it. (Measured from "morning": through ALSA's pulse plugin the first
        // word may be reported while the plugin's first write stalls.)
        guard times.count == 7 else { return }
        #expect(times[2] - times[1] > 0.25 && times[2] - times[1] < 0.7, "\(times)")
        #expect(times[3] - times[1] >= 0.45, "\(times)")
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
