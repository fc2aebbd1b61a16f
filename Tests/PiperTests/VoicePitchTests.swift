import Foundation
import Piper
import Testing

@Suite struct VoicePitchTests {
    static func wave(hertz: Double, harmonics: Int, seconds: Double, rate: Int = 22050) -> [Int16] {
        (0..<Int(seconds * Double(rate))).map { index in
            let phase = 2 * Double.pi * hertz * Double(index) / Double(rate)
            var value = 0.0
            for harmonic in 1...harmonics { value += sin(phase * Double(harmonic)) / Double(harmonic) }
            return Int16(8000 * value)
        }
    }

    @Test(arguments: [(220.0, 1), (110.0, 8), (87.5, 12), (310.0, 3)])
    func `the median F0 of a periodic sound is its period's, harmonics or not`(hertz: Double, harmonics: Int) throws {
        let measured = try #require(
            VoicePitch.median(of: Self.wave(hertz: hertz, harmonics: harmonics, seconds: 1), sampleRate: 22050))
        #expect(abs(measured.hertz / hertz - 1) < 0.01, "\(measured.hertz) Hz for \(hertz)")
        #expect(measured.voicedFrames > 30)
    }

    @Test func `silence, a too short sound and a voice heard only in part`() throws {
        #expect(VoicePitch.median(of: [Int16](repeating: 0, count: 22050), sampleRate: 22050) == nil)
        #expect(VoicePitch.median(of: Self.wave(hertz: 200, harmonics: 2, seconds: 0.02), sampleRate: 22050) == nil)
        #expect(VoicePitch.median(of: [], sampleRate: 0) == nil)
        // Half silence, half voice: the voiced frames alone are counted.
        let half = [Int16](repeating: 0, count: 11025) + Self.wave(hertz: 150, harmonics: 4, seconds: 0.5)
        let measured = try #require(VoicePitch.median(of: half, sampleRate: 22050))
        #expect(abs(measured.hertz / 150 - 1) < 0.01 && measured.voicedFrames < 25, "\(measured)")
    }
}
