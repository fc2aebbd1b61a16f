import Testing

@testable import Speech

/// How fast a recorded clip plays at a rate: the rate alone below normal, its words' pace at the top.
struct ClipPaceTests {
    @Test func `a clip is as recorded at speed 1, paced by the rate alone below it`() {
        #expect(
            ClipPace.speed(1, maximumSpeed: 5, normalRate: 175, words: 1, soundSeconds: 0.4, marginSeconds: 0.3) == 1)
        #expect(
            ClipPace.speed(0.5, maximumSpeed: 5, normalRate: 175, words: 1, soundSeconds: 0.4, marginSeconds: 0.3)
                == 0.5)
        #expect(
            ClipPace.speed(3, maximumSpeed: 5, normalRate: 175, words: 0, soundSeconds: 0.4, marginSeconds: 0.3) == 3)
    }

    @Test func `at the top a clip lasts what its words take at the top pace, margins counted`() {
        let (sound, margins) = (0.4, 0.3)
        for words in [1, 2] {
            let top = 900.0 / 175
            let speed = ClipPace.speed(
                top, maximumSpeed: top, normalRate: 175, words: words, soundSeconds: sound, marginSeconds: margins)
            let lasts = sound / speed + margins / (speed * speed)
            let allowed = Double(words) * 60 / (ClipPace.engineMeasuredPace * 900)
            #expect(
                abs(lasts / allowed - 1) < 0.001 || speed == top * ClipPace.corrections.upperBound,
                "\(lasts) s for \(allowed) s")
            // Halfway (geometrically) it has half the correction's logarithm.
            let half = ClipPace.speed(
                top.squareRoot(), maximumSpeed: top, normalRate: 175, words: words, soundSeconds: sound,
                marginSeconds: margins)
            #expect(abs(half / top.squareRoot() - (speed / top).squareRoot()) < 1e-9)
        }
    }
}
