// A clip voice installed in the user's data folder, used through the real server and spd-say.
import Foundation
import TestSupport
import Testing

@Suite("clip voices through speech-dispatcher")
struct ClipVoiceServerTests {
    /// A 0.4 s tone at the module's rate.
    static let tone = TestSupport.tone(frequency: 630, seconds: 0.4, amplitude: 9000)

    @Test("a clip voice in ~/.local/share/utter/voices is listed by spd-say -L and plays its clip for spd-say -y")
    func clipVoiceThroughTheServer() async throws {
        let clip = Self.tone
        try await withServer(
            "clips", device: .unpaced,
            prepare: { home in
                let folder = home.appendingPathComponent(".local/share/utter/voices/chime")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let written = SoundFileContents.writeWAV(clip, sampleRate: 22050, to: folder.appendingPathComponent("ding.wav").path)
                #expect(written, "the clip is written with libsndfile")
                try """
                Name "Chime"
                PrimaryLanguage "en-GB"
                Fallback none
                Clip "ding" "ding.wav"

                """.write(to: folder.appendingPathComponent("voice.conf"), atomically: true, encoding: .utf8)
            }
        ) { rig in
            let listed = try await rig.spdSay(["-o", "utter", "-L"])
            rig.check(listed.stdout.contains("Chime"), "Chime is not listed:\n\(listed.stdout.prefix(2000))")
            let said = try await rig.spdSay(["-o", "utter", "-y", "Chime", "-w", "Ding, ding!"])
            rig.check(said.succeeded, "spd-say failed: \(said)")
            await rig.shutdown()
            let samples = try await rig.capturedSamples()
            // Only the clips are heard (the voice has no fallback): the tone twice, sample for sample.
            rig.check(samples == clip + clip, "captured \(samples.count) samples, want the 8,820-sample clip twice")
        }
    }
}
