import AudioSinks
import OnnxRuntime
import Playback
import SSML
import TestSupport
import Testing
import Voices

@testable import Speech

/// The real joe voice: where marks and words are placed against where their sound starts.
@Suite(.serialized)
struct NeuralOnsetTests {
    /// Each mark and each word after it follows a pause the voice makes (a sentence's end, a comma).
    static let ssml = "<speak>One. <mark name=\"a\"/>Alpha, <mark name=\"b\"/>oscar. <mark name=\"c\"/>Echo.</speak>"

    /// Where each stretch of sound starts: a sample above the threshold after at least `gap` quiet ones.
    static func onsets(_ samples: [Int16], threshold: Int16 = 300, gap: Int) -> [Int] {
        soundStretches(samples, threshold: threshold, gap: gap).map(\.lowerBound)
    }

    @Test func `marks and words after a pause are placed where the joe voice's sound starts`() async throws {
        let joe = try joeVoiceFiles()
        let voice = NeuralVoice(
            model: joe.model, config: joe.config, speaker: nil, fallbackEngineName: "gmw/en-US",
            runtimeLibrary: try installedOnnxRuntime().libraryPath, threads: 1)
        let rig = try await NeuralRig.start()
        let events = try rig.speak(rig.job(Self.ssml, voice: voice))
        rig.finish()
        let samples = rig.store.contents
        let rate = 22050
        // Pauses as bench/server finds them: 60 ms under |300|.
        let onsets = Self.onsets(samples, gap: rate * 60 / 1000)
        var placed: [(String, Int)] = []
        for event in events {
            if case .mark(_, let name, let position) = event { placed.append((name, Int(position))) }
            if case .word(_, let text, let position) = event, text.lowerBound > 0 {
                placed.append(("word \(text)", Int(position)))
            }
        }
        #expect(placed.count == 6, "marks a, b, c and the words they precede: \(placed)")
        // A few milliseconds either way: the onset threshold, and the voice's noise: VITS draws new
        // noise at every inference, so a word's onset moves from run to run (8.75 ms off seen once
        // in about 20 runs). The faults this guards against were 17-50 ms.
        let tolerance = rate * 12 / 1000
        for (name, position) in placed {
            let nearest = onsets.min { abs($0 - position) < abs($1 - position) } ?? 0
            #expect(
                abs(position - nearest) <= tolerance,
                "\(name) at \(position), its sound at \(nearest): \(Double(position - nearest) * 1000 / Double(rate)) ms (onsets \(onsets))"
            )
        }
    }
}
