// utter history --replay against the real speech-dispatcher: the server's own message is ended as a
// stop ends it, and the server's next message wins over the replay.
import Foundation
import TestSupport
import Testing

@Suite("utter history with speech-dispatcher")
struct HistoryServerTests {
    /// The module logs at debug level, where a replay halted says so.
    static func logEverything(in dir: URL) throws {
        let handle = try FileHandle(forWritingTo: dir.appendingPathComponent("conf/modules/utter.conf"))
        handle.seekToEndOfFile()
        handle.write(Data("LogLevel 5\n".utf8))
        try handle.close()
    }

    @Test("a replay cancels the client's message, and the client's next message speaks normally")
    func replayDuringAMessage() async throws {
        try await withServer("history", device: .paced, prepare: Self.logEverything) { rig in
            let utter = URL(fileURLWithPath: try Paths.moduleBinary()).deletingLastPathComponent()
                .appendingPathComponent("utter").path
            let first = "The first message has three sentences. It is replayed later. This is the third one."
            let next = "The next message is spoken normally."
            let s = try await rig.session(
                "replay", [first, ServerTests.longText, next, utter, "history", "--replay", "2"])
            rig.check(s.ok, "client failed: \(s.errors) status \(s.finished.status)")
            rig.check(
                s.actions.contains { $0.name == "command" && $0.message == 0 }, "utter history failed: \(s.actions)")
            rig.check(s.events(of: s.spoken(0)).map(\.type) == ["begin", "end"], "first: \(s.events(of: s.spoken(0)))")
            rig.check(
                s.events(of: s.spoken(1)).map(\.type) == ["begin", "cancel"],
                "the message a replay interrupts ends as a cancelled one: \(s.events(of: s.spoken(1)))")
            rig.check(
                s.events(of: s.spoken(2)).map(\.type) == ["begin", "end"],
                "the message after the replay: \(s.events(of: s.spoken(2)))")
            let log =
                (try? String(contentsOf: rig.runDir.appendingPathComponent("log/utter.log"), encoding: .utf8)) ?? ""
            rig.check(log.contains("replaying a message from the history"), "no replay in the module's log")
            rig.check(log.contains("replay halted"), "the server's message did not halt the replay")
            await rig.shutdown()
            let samples = try await rig.capturedSamples()
            rig.check(rootMeanSquare(samples) > 300, "captured audio is silent")
        }
    }
}
