import Glibc
import TestSupport
import Testing

/// `utter play` on a terminal (tmux) and a paced sound device (a private PulseAudio's null sink):
/// what the screen says against what is heard, keys pressed as a presenter presses them.
@Suite struct PlayTerminalTests {
    private var utter: String { utterPath }

    private static let long = """
        This first slide takes a while to read aloud, so that there is time to pause it \
        in the middle, ask for a preset, and then go on from the word where it stopped.
        """

    @Test(.timeLimit(.minutes(2)))
    func `space pauses, a preset speaks while paused, space goes on, q stops, and slides follow`() throws {
        let folder = TemporaryFolder()
        let pulse = try PrivateSoundServer(runtime: folder.file("pulse"))
        writeFile(
            folder.file(".asoundrc"),
            "pcm.utter_paced { type pulse server \"unix:\(pulse.socket)\" device \"utter_null\" }\n")
        let recording = try MonitorRecording(pulse: pulse, path: folder.file("heard.raw"))
        writeFile(
            folder.file("talk.json"),
            """
            {"title": "A test talk", "actions": [
              {"type": "changeSlidePage", "page": 0},
              {"type": "speak", "text": "\(Self.long)"},
              {"type": "changeSlidePage", "page": "next"},
              {"type": "speak", "text": "Second slide."},
              {"type": "pause"},
              {"type": "speak", "text": "\(Self.long)"}
            ],
            "presets": [{"text": "Any questions?"}]}
            """)
        let session = try TerminalSession(
            command: """
                cd '\(folder.path)' && stty -g > before && \(utter) play --device utter_paced \
                --on-slide 'echo {page} >> pages' talk.json; status=$?; stty -g > after; (exit $status)
                """,
            environment: ["HOME=\(folder.path)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8", "TERM=xterm-256color"])
        defer { session.close() }

        #expect(session.waitFor("action 2 of 6 · slide 1 (index 0) · speaking · q quits"), "\(session.screen())")
        #expect(recording.waitUntilHeard(within: 10))
        usleep(2_000_000)  // some words into it
        session.send("Space")
        #expect(session.waitFor("action 2 of 6 · slide 1 (index 0) · paused · space goes on · 1: preset · q quits"))
        // Paused, nothing more is heard (after the sound server's latency).
        usleep(500_000)
        let pausedAt = recording.samplesSoFar().count
        usleep(1_000_000)
        let whilePaused = recording.samplesSoFar()[pausedAt...]
        #expect(whilePaused.count > 11025 && whilePaused.allSatisfy { abs(Int32($0)) < 300 }, "\(whilePaused.count)")

        session.send("1")
        #expect(session.waitFor("preset 1: Any questions?"))
        #expect(session.waitFor("action 2 of 6 · slide 1 (index 0) · preset 1"))
        #expect(heard(recording, after: pausedAt), "the preset is heard")
        #expect(session.waitFor("action 2 of 6 · slide 1 (index 0) · paused", seconds: 10), "after the preset, paused again")

        session.send("Space")
        // The first slide goes on from the word where it was paused, not from its start.
        #expect(
            session.waitUntil {
                $0.split(separator: "\n").contains { $0.count > 10 && $0 != Self.long && Self.long.hasSuffix($0) }
            }, "\(session.screen())")

        #expect(session.waitFor("action 5 of 6 · slide 2 (index 1) · paused", seconds: 30), "\(session.screen())")
        #expect(session.screen().contains("Second slide."))
        session.send("Space")
        #expect(session.waitFor("action 6 of 6 · slide 2 (index 1) · speaking"))
        session.send("q")
        #expect(session.exitStatus() == 0)
        let lines = session.screen().split(separator: "\n").map(String.init)
        #expect(lines.suffix(2) == ["action 6 of 6 · slide 2 (index 1) · stopped", "[exit 0]"], "\(lines)")
        #expect(lines.filter { $0.hasPrefix("slide ") } == ["slide 1 (index 0)", "slide 2 (index 1)"])
        #expect(readText(folder.file("pages")) == "1\n2\n")
        #expect(readText(folder.file("before")) == readText(folder.file("after")), "the terminal is restored")
        // q stops the speech at once: nothing is heard a moment later.
        usleep(500_000)
        let stoppedAt = recording.samplesSoFar().count
        usleep(500_000)
        #expect(recording.samplesSoFar()[stoppedAt...].allSatisfy { abs(Int32($0)) < 300 })
    }

    /// Waits until something audible is recorded after sample `start`.
    private func heard(_ recording: MonitorRecording, after start: Int, within seconds: Int = 10) -> Bool {
        for _ in 0..<(seconds * 50) {
            let samples = recording.samplesSoFar()
            if samples.count > start, samples[start...].contains(where: { abs(Int32($0)) >= 300 }) { return true }
            usleep(20_000)
        }
        return false
    }
}
