// A Piper voice as a user gets it (issue 22): added with `utter voice add`, then spoken through
// the real speech-dispatcher by spd-say and by an SSIP client with marks.
import Foundation
import OnnxRuntime
import System
import TestSupport
import Testing

@Suite("a Piper voice through speech-dispatcher")
struct NeuralServerTests {
    @Test("utter voice add joe, then spd-say -o utter -y joe and an SSML client with marks: every mark in order, the model's speech")
    func joeThroughTheServer() async throws {
        let joe = try joeVoiceFiles()
        let runtime = try installedOnnxRuntime()
        var added: ChildProcess?
        try await withServer("neural", device: .unpaced, prepare: { home in
            // As a user adds a voice: into their own voice folder, which the module reads.
            added = ChildProcess.run(
                [utterPath, "voice", "add", joe.model, "--name", "joe"],
                environment: [
                    "PATH=/usr/bin:/bin", "LANG=C.UTF-8", "HOME=\(home.path)",
                    "UTTER_ONNXRUNTIME=\(runtime.libraryPath)",
                ], timeout: 120)
            // The server's HOME is the rig's folder, where no python package is: name the runtime.
            let configuration = home.appendingPathComponent("conf/modules/utter.conf")
            let lines = try String(contentsOf: configuration, encoding: .utf8)
            try (lines + "OnnxRuntimeLibrary \"\(runtime.libraryPath)\"\nNeuralThreads 2\n")
                .write(to: configuration, atomically: true, encoding: .utf8)
        }) { rig in
            let add = try #require(added)
            rig.check(add.status == 0, "utter voice add: \(add.status) \(add.standardError)")
            let log = rig.dir.appendingPathComponent("run/log/utter.log").path
            // A message that comes while the model still loads after a second's wait is spoken by
            // espeak-ng, and the log says so (error level: the server's log level keeps it): speak
            // until one is the model's, as a user would hear it happen.
            var fallbacks = readText(log).components(separatedBy: "neural voice unavailable").count
            var neural = false
            for _ in 0..<10 where !neural {
                let said = try await rig.spdSay(["-o", "utter", "-y", "joe", "-w", "Hello from the neural voice."])
                rig.check(said.succeeded, "spd-say failed: \(said)")
                let now = readText(log).components(separatedBy: "neural voice unavailable").count
                neural = now == fallbacks
                fallbacks = now
            }
            rig.check(neural, "every spd-say message fell back to espeak-ng: \(readText(log))")
            let fallbacksBefore = fallbacks

            let ssml = #"<speak>First <mark name="m1"/>second. <mark name="m2"/>Third sentence. <mark name="m3"/>End.</speak>"#
            let s = try await rig.session("voice-marks", ["joe", ssml])
            rig.check(s.ok, "client failed: \(s.errors) status \(s.finished.status)")
            let message = s.spoken(0) ?? -1
            let expected = [
                Session.Event(message: message, type: "begin", mark: nil),
                Session.Event(message: message, type: "index_marks", mark: "m1"),
                Session.Event(message: message, type: "index_marks", mark: "m2"),
                Session.Event(message: message, type: "index_marks", mark: "m3"),
                Session.Event(message: message, type: "end", mark: nil),
            ]
            rig.check(s.events(of: message) == expected, "events \(s.events(of: message)), want \(expected)")
            // Spoken by the model, not handed to espeak-ng.
            let fallbacksAfter = readText(log).components(separatedBy: "neural voice unavailable").count
            rig.check(fallbacksAfter == fallbacksBefore, "the marked message fell back to espeak-ng: \(readText(log))")
            await rig.shutdown()
            let samples = try await rig.capturedSamples()
            // Two messages of speech; Piper normalises each sentence to full scale, espeak-ng does not.
            rig.check(samples.count >= Audio.rate * 2, "captured only \(Audio.seconds(samples.count))")
            let peak = samples.map { abs(Int($0)) }.max() ?? 0
            rig.check(peak >= 30000, "peak \(peak): not the model's full-scale speech")
        }
    }
}
