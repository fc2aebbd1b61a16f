// `utter play --server`: a scenario spoken through the user's speech-dispatcher.
import Foundation
import TestSupport
import Testing

@Suite("utter play through speech-dispatcher (--server)")
struct PlayServerTests {
    @Test func `a scenario plays through the server, step by step, each speech heard`() async throws {
        let folder = TemporaryFolder()
        let scenario = folder.file("talk.json")
        writeFile(
            scenario,
            """
            {"language": "en", "actions": [
              {"type": "changeSlidePage", "page": 0},
              {"type": "speak", "text": "Hello from the server.", "pitch": 1.4},
              {"type": "wait", "seconds": 0.3},
              {"type": "changeSlidePage", "page": "next"},
              {"type": "speak", "text": "And goodbye.", "rate": 0.6}
            ]}
            """)
        let utter = URL(fileURLWithPath: try Paths.moduleBinary()).deletingLastPathComponent()
            .appendingPathComponent("utter").path
        try await withServer("utter-play-server", device: .paced) { rig in
            let played = try await rig.run(
                utter, ["play", "--server", "--module", "utter", scenario], timeout: .seconds(30))
            rig.check(played.succeeded, "utter play --server failed: \(played)")
            #expect(
                played.stdout == """
                    slide 1 (index 0)
                    Hello from the server.
                    (waiting 0.3 s)
                    slide 2 (index 1)
                    And goodbye.
                    action 5 of 5 · slide 2 (index 1) · finished

                    """)
            await rig.shutdown()
            let samples = try await rig.capturedSamples()
            #expect(Double(samples.count) / 22050 > 1.5 && rootMeanSquare(samples) > 500)
        }
    }
}
