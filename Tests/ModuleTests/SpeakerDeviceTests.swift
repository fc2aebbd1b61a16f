import Glibc
import TestSupport
import Testing
import UtterKit

/// UtterKit's Speaker on a device that plays in real time (a private PulseAudio null sink through
/// ALSA's pulse plugin, recorded from its monitor): pause, resume and stop at boundaries, as heard.
@Suite(.serialized)
struct SpeakerDeviceTests {
    private let text = "Alpha bravo charlie delta echo foxtrot."

    /// A speaker on a fresh private PulseAudio, with the recording of what it played.
    private func withPacedSpeaker(
        _ body: (Speaker, MonitorRecording) async throws -> Void
    ) async throws {
        let folder = TemporaryFolder(prefix: "utter-speaker-device")
        let pulse = try PrivatePulse(runtime: folder.file("pulse"))
        defer { pulse.kill() }
        let recording = try MonitorRecording(pulse: pulse, path: folder.file("heard.raw"))
        let alsa = "pcm.paced { type pulse server \"unix:\(pulse.socket)\" device \"utter_null\" }\n"
        await EngineTurns.take()
        defer { EngineTurns.release() }
        let speaker = try Speaker(output: .device("paced", configuration: alsa))
        // PulseAudio holds a new stream's first writes for up to 1.7 s and then plays them in a
        // rush (the events with them): warm the stream up, as bench/server does.
        for await _ in speaker.speak(Utterance(text: "Warm up.")) {}
        try await body(speaker, recording)
    }

    private func words(_ events: [SpeechEvent]) -> [String] {
        events.compactMap { if case .word(let range) = $0 { String(text[range]) } else { nil } }
    }

    @Test func `pause at a word holds before it, in silence; resume plays the rest`() async throws {
        try await withPacedSpeaker { speaker, recording in
            var heard: [SpeechEvent] = []
            for await event in speaker.speak(Utterance(text: text)) {
                heard.append(event)
                if words(heard) == ["Alpha"], case .word = event { speaker.pause(at: .word) }
                if event == .paused {
                    #expect(speaker.isPaused && speaker.isSpeaking)
                    // Held: nothing more is heard while paused.
                    usleep(300_000)
                    let before = recording.samplesSoFar().count
                    usleep(600_000)
                    let during = Array(recording.samplesSoFar().dropFirst(before))
                    #expect(during.count > 22050 / 4, "the monitor kept recording: \(during.count) samples")
                    #expect(during.allSatisfy { abs(Int32($0)) < 300 }, "sound while paused")
                    speaker.resume()
                }
            }
            let pause = try #require(heard.firstIndex(of: .paused))
            #expect(words(Array(heard[..<pause])) == ["Alpha"])
            #expect(heard[pause + 1] == .resumed)
            #expect(words(heard) == ["Alpha", "bravo", "charlie", "delta", "echo", "foxtrot"])
            #expect(heard.last == .finished)
            #expect(!speaker.isPaused && !speaker.isSpeaking)
        }
    }

    @Test func `stop at a word ends before it and cancels the queue`() async throws {
        try await withPacedSpeaker { speaker, _ in
            var heard: [SpeechEvent] = []
            let first = speaker.speak(Utterance(text: text))
            let second = speaker.speak(Utterance(text: "Never heard."))
            for await event in first {
                heard.append(event)
                if words(heard) == ["Alpha", "bravo"], case .word = event { speaker.stop(at: .word) }
            }
            var rest: [SpeechEvent] = []
            for await event in second { rest.append(event) }
            #expect(words(heard) == ["Alpha", "bravo"])
            #expect(heard.last == .cancelled)
            #expect(rest == [.cancelled])
        }
    }

    @Test func `stop at once silences the device within a buffer`() async throws {
        try await withPacedSpeaker { speaker, recording in
            var heard: [SpeechEvent] = []
            var stoppedAt = 0
            for await event in speaker.speak(Utterance(text: text)) {
                heard.append(event)
                if words(heard) == ["Alpha", "bravo"], case .word = event {
                    stoppedAt = recording.samplesSoFar().count
                    speaker.stop()
                }
            }
            #expect(heard.last == .cancelled)
            usleep(500_000)
            let samples = recording.samplesSoFar()
            // Within 200 ms of the stop (the 80 ms buffer, the sink's latency, the recording's) all is quiet.
            let after = samples.dropFirst(stoppedAt + 4410)
            #expect(after.count > 4410, "the monitor kept recording")
            #expect(after.allSatisfy { abs(Int32($0)) < 300 }, "sound after the stop")
            #expect(rootMeanSquare(samples.prefix(stoppedAt)) > 300, "the first words were heard")
        }
    }
}
