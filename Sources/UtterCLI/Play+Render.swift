import Scenario
import SoundFiles
import System
import UtterKit

extension UtterCommand.Play {
    /// Renders every speech of `scenario` into the file `path`, back to back, and says how long
    /// the result plays and how fast it was made.
    func render(_ scenario: Scenario, to path: String) async throws {
        let speeches = scenario.recording
        guard !speeches.isEmpty else {
            throw UtterError("The scenario '\(self.scenario)' speaks no text: there is nothing to render.")
        }
        let start = MonotonicClock.now
        try await record(speeches, to: path)
        let elapsed = Double(MonotonicClock.now - start) / 1e9
        let seconds = try SoundFileLength.seconds(of: path)
        let speed = Int((seconds / max(elapsed, 1e-3)).rounded())
        Terminal.write(
            "Rendered \(speeches.count) speech\(speeches.count == 1 ? "" : "es") of '\(self.scenario)' to '\(path)': "
                + "\(Self.decimal(seconds)) s of audio in \(Int((elapsed * 1000).rounded())) ms (\(speed)× real time).\n"
        )
    }

    /// Speaks `speeches` into the file, which is complete when this returns: the speaker that
    /// wrote it is gone (an Ogg or FLAC file is finished only when closed).
    private func record(_ speeches: [Passage], to path: String) async throws {
        let channel = try speech.channel(output: path)
        // Queued all at once: the engine renders the next while the file takes the last.
        let streams = speeches.map { channel.speak(Self.utterance($0, options: speech)) }
        for stream in streams {
            for await event in stream where event == .cancelled {
                throw UtterError("Rendering was cut off.")
            }
        }
    }

    /// One decimal: 12.34 → "12.3".
    static func decimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
