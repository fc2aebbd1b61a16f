import AudioSinks
import Glibc
import Playback
import System
import TestSupport
import Testing
import Voices

@testable import Speech

@Suite(.serialized)
struct PacedSynthesisTests {
    /// Two clip words with 200 ms of silence around each, as recorded phrases often have.
    struct Clips {
        let folder = TemporaryFolder()
        var first: String { folder.file("hello.wav") }
        var second: String { folder.file("there.wav") }
        init() {
            let margin = [Int16](repeating: 0, count: 4410)
            SoundFileContents.writeWAV(
                margin + sustainedVowel(f0: 120, seconds: 0.4) + margin, sampleRate: 22050, to: first)
            SoundFileContents.writeWAV(
                margin + sustainedVowel(f0: 180, seconds: 0.5) + margin, sampleRate: 22050, to: second)
        }
        var ssml: String {
            "<speak><audio src=\"\(first)\">hello</audio><mark name=\"between\"/><audio src=\"\(second)\">there</audio></speak>"
        }
    }

    func render(_ clips: Clips, speed: Double) async throws -> (samples: [Int16], mark: Int) {
        let rig = try await NeuralRig.start()
        defer { rig.finish() }
        var job = rig.job(clips.ssml, voice: nil)
        job.speed = speed
        let events = try rig.speak(job)
        guard case .audioStart(_, let start) = events.first, case .end(_, let end) = events.last,
            let mark = events.lazy.compactMap({ event -> UInt64? in
                if case .mark(_, "between", let position) = event { position } else { nil }
            }).first
        else { throw SpawnError(what: "unexpected events \(events)", code: EINVAL) }
        let samples = Array(rig.store.contents[Int(start)..<Int(end)])
        return (samples, Int(mark - start))
    }

    @Test(arguments: [2.0, 4.0, 900.0 / 175])
    func `clips follow the speed, pitch kept, and the mark between two words lands in the gap`(speed: Double)
        async throws
    {
        let clips = Clips()
        let (asRecorded, markAsRecorded) = try await render(clips, speed: 1)
        let margin = 4410
        let firstClip: Int = 2 * margin + 8820
        let secondClip: Int = 2 * margin + 11025
        #expect(asRecorded.count == firstClip + secondClip, "at speed 1 the clips are played as recorded")
        #expect(markAsRecorded == firstClip)
        let (paced, mark) = try await render(clips, speed: speed)
        let words = soundStretches(paced)
        try #require(words.count == 2, "\(words)")
        // Each word's sound is shorter by the speed; the margins by its square.
        #expect(abs(Double(words[0].count) * speed / 8820 - 1) < 0.05, "first word \(words[0].count)")
        #expect(abs(Double(words[1].count) * speed / 11025 - 1) < 0.05, "second word \(words[1].count)")
        let margins = 4 * 4410 / (speed * speed)
        let expectedLength = (8820 + 11025) / speed + margins
        #expect(
            abs(Double(paced.count) / expectedLength - 1) < 0.05, "\(paced.count) samples, \(expectedLength) expected")
        #expect(words[0].upperBound < mark && mark < words[1].lowerBound, "mark at \(mark), words at \(words)")
        let first = fundamental(paced[words[0]], sampleRate: 22050)
        let second = fundamental(paced[words[1]], sampleRate: 22050)
        #expect(abs(first / 120 - 1) < 0.03 && abs(second / 180 - 1) < 0.03, "F0 \(first) and \(second) Hz")
    }
}
