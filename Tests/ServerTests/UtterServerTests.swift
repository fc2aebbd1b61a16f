// `utter … --server`: utter as an SSIP client of the user's speech-dispatcher (through
// libspeechd), following words by the index marks the server reports.
import Foundation
import TestSupport
import Testing

@Suite("utter through speech-dispatcher (--server)")
struct UtterServerTests {
    private func utter() throws -> String {
        URL(fileURLWithPath: try Paths.moduleBinary()).deletingLastPathComponent().appendingPathComponent("utter").path
    }

    @Test func `say --follow --server shows each word when the server reports its mark`() async throws {
        let sentence = "The quick brown fox jumps over the lazy dog."
        try await withServer("utter-follow-server", device: .paced) { rig in
            let said = try await rig.run(
                try utter(), ["say", "--follow", "--server", "--module", "utter", sentence], timeout: .seconds(30))
            rig.check(said.succeeded, "utter say --server failed: \(said)")
            let lines = said.stdout.split(separator: "\n").map { $0.split(separator: "\t") }
            #expect(
                lines.map { String($0.last ?? "") } == ["The", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog"])
            let times = lines.compactMap { Double($0.first ?? "") }
            // In order; two marks may share a time when a busy machine delays the module's reports
            // and the server passes them on together.
            #expect(times.count == 9 && zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(times)")
            #expect(Set(times).count >= 5, "spread over the sentence: \(times)")
            // Reported as heard on the paced device: the sentence takes well over a second.
            #expect((times.last ?? 0) > 1, "\(times)")
            await rig.shutdown()
            let samples = try await rig.capturedSamples()
            #expect(Double(samples.count) / 22050 > 1.5 && rootMeanSquare(samples) > 500)
        }
    }

    @Test func `without a server to reach, --server says so`() throws {
        let folder = TemporaryFolder()
        let run = ChildProcess.run(
            [try utter(), "say", "--server", "Hello"],
            environment: [
                "HOME=\(folder.path)", "PATH=/usr/bin:/bin", "SPEECHD_CMD=/bin/false",
                "SPEECHD_ADDRESS=unix_socket:\(folder.file("none.sock"))",
            ])
        #expect(run.status == 1)
        #expect(run.standardError.hasPrefix("Error: Cannot reach your speech-dispatcher: "), "\(run.standardError)")
        let render = ChildProcess.run([try utter(), "say", "--server", "-o", folder.file("x.wav"), "Hello"])
        #expect(render.status == 1)
        #expect(
            render.standardError
                == "Error: -o cannot be used with --server: speech-dispatcher plays speech, it does not render files.\n")
    }
}
