// A clip voice installed in the user's data folder, used through the real server and spd-say.
import Foundation
import Testing

@Suite("clip voices through speech-dispatcher")
struct ClipVoiceServerTests {
    /// A 0.4 s tone as 16-bit mono WAV at the module's rate, and its samples.
    static func tone() -> (wav: Data, samples: [Int16]) {
        let samples = (0..<8820).map { Int16(9000 * sin(2 * Double.pi * 630 * Double($0) / 22050)) }
        var wav = Data()
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { wav.append(contentsOf: $0) }
        }
        wav.append(contentsOf: Array("RIFF".utf8))
        append(UInt32(36 + samples.count * 2))
        wav.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16))
        append(UInt16(1))
        append(UInt16(1))
        append(UInt32(22050))
        append(UInt32(44100))
        append(UInt16(2))
        append(UInt16(16))
        wav.append(contentsOf: Array("data".utf8))
        append(UInt32(samples.count * 2))
        for sample in samples { append(sample) }
        return (wav, samples)
    }

    @Test("a clip voice in ~/.local/share/utter/voices is listed by spd-say -L and plays its clip for spd-say -y")
    func clipVoiceThroughTheServer() async throws {
        let (wav, clip) = Self.tone()
        try await withServer(
            "clips", device: .unpaced,
            prepare: { home in
                let folder = home.appendingPathComponent(".local/share/utter/voices/chime")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try wav.write(to: folder.appendingPathComponent("ding.wav"))
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
