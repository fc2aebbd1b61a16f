import SoundFiles
import TestSupport
import Testing

/// libsonic's speed changes, with the pitch kept, and recorded clips paced.
struct SpeedChangeTests {
    @Test(arguments: [0.5, 2.0, 3.0, 900.0 / 175])
    func `libsonic divides the duration by the speed and keeps the pitch of a sustained vowel`(speed: Double) throws {
        let vowel = sustainedVowel(f0: 120, seconds: 1)
        let before = fundamental(vowel, sampleRate: 22050)
        #expect(abs(before - 120) < 1, "the estimator reads the vowel it is given: \(before) Hz")
        let changed = try #require(SpeedChange.apply(vowel, speed: speed, sampleRate: 22050))
        let ratio = Double(vowel.count) / Double(changed.count)
        #expect(abs(ratio / speed - 1) < 0.02, "duration ratio \(ratio) at speed \(speed)")
        let after = fundamental(changed, sampleRate: 22050)
        #expect(abs(after / before - 1) < 0.03, "F0 \(before) Hz became \(after) Hz at speed \(speed)")
        #expect(rootMeanSquare(changed) > rootMeanSquare(vowel) * 0.8, "still as loud")
    }

    @Test func `at speed 1 a clip is left sample for sample`() throws {
        let clip = [Int16](repeating: 0, count: 500) + sustainedVowel(f0: 150, seconds: 0.3)
        #expect(SpeedChange.clip(clip, speed: 1, sampleRate: 22050) == clip)
        #expect(SpeedChange.apply(clip, speed: 1, sampleRate: 22050) == clip)
        #expect(SpeedChange.position(12345, speed: 1) == 12345)
        #expect(SpeedChange.position(12345, speed: 2.5) == 4938)
    }

    @Test func `a faster clip loses its margins of silence once more than its sound`() throws {
        let margin = [Int16](repeating: 0, count: 4410)  // 200 ms
        let clip = margin + sustainedVowel(f0: 130, seconds: 0.4) + margin
        let paced = try #require(SpeedChange.clip(clip, speed: 4, sampleRate: 22050))
        let stretches = soundStretches(paced)
        try #require(stretches.count == 1, "\(stretches)")
        let sound = stretches[0]
        // 400 ms of vowel in 100, 200 ms of silence on each side in 12.5.
        #expect(abs(Double(sound.count) / 2205 - 1) < 0.05, "\(sound.count) samples of sound")
        #expect(abs(Double(sound.lowerBound) / 276 - 1) < 0.15, "leading margin \(sound.lowerBound)")
        #expect(abs(Double(paced.count - 1 - sound.upperBound) / 276 - 1) < 0.15, "trailing margin")
    }
}
