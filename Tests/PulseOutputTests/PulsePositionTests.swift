import AudioStream
import AudioSinks
import Glibc
import PulseOutput
import System
import TestSupport
import Testing

/// 400 ms of a 300 Hz tone.
private let tone = TestSupport.tone(frequency: 300, seconds: 0.4, amplitude: 12000)

/// How many samples of the newest audible run the recording ends with (a gap of 10 ms or more
/// ends a run).
private func newestRunLength(_ samples: [Int16]) -> Int {
    var length = 0
    var quiet = 0
    for sample in samples.reversed() {
        if abs(Int32(sample)) >= 300 {
            length += quiet + 1
            quiet = 0
        } else {
            quiet += 1
            if quiet >= 220 && length > 0 { break }
        }
    }
    return length
}

/// The position the libpulse backend reports as heard, checked against the server's own monitor.
@Suite(.serialized)
struct PulsePositionTests {
    /// Short sounds with silence between them, so that the stream runs dry and starts again each
    /// time (as speech at 900 words a minute does): when the stream says 150 ms of a sound were
    /// heard, the monitor has recorded about that much of it. (libpulse's interpolated latency
    /// gave none on such a stream: everything handed over counted as heard, 40 ms too soon.)
    @Test(arguments: SoundServerKind.allCases)
    func `short sounds are heard where the stream says they are`(server kind: SoundServerKind) throws {
        let folder = TemporaryFolder(prefix: "utter-pulse-position")
        let server = try PrivateSoundServer(runtime: folder.path + "/server", kind: kind)
        let wake = try EventFD()
        let sink = try PulseOutput.sink(
            sampleRate: 22050, periodFrames: 220, bufferFrames: 1760, server: "unix:\(server.socket)",
            sink: "utter_null", controlWake: wake)
        if let problem = sink.start() { Issue.record("the stream did not start: \(problem)") }
        defer { _ = sink.shutdown(until: MonotonicClock.now + 2_000_000_000) }
        let recording = try MonitorRecording(pulse: server, path: folder.file("heard.raw"))
        defer { _ = recording.finish() }
        let into = 3308  // 150 ms
        var sets: [[Int]] = []
        // A second set of eight rounds only when the first had more than one ahead: an estimate
        // that runs ahead does so round after round (it was 51 ms ahead in four of the first
        // eight) and fails both; a recorder held back by a loaded machine (a full .ci/run here once:
        // five of eight, the stream's code unchanged) rarely holds back two sets.
        // The monitor lags by its 5 ms fragments: 20 ms allowed, and one round beyond it (parec
        // delayed on a busy machine).
        let ahead = { (shortfalls: [Int]) in shortfalls.filter { $0 > 441 }.count }
        var job: UInt64 = 0
        repeat {
            var shortfalls: [Int] = []
            for _ in 1...8 {
                job += 1
                let start = try sink.beginJob(job, continuing: false)
                _ = tone.withUnsafeBufferPointer { sink.write($0, isCancelled: { false }) }
                let deadline = monotonicSeconds() + 5
                let played = { sink.playedPosition(at: MonotonicClock.now) }
                while played() < start + UInt64(into) && monotonicSeconds() < deadline { usleep(500) }
                // Read after the stream's claim: the recording can only have grown since.
                let heard = newestRunLength(recording.samplesSoFar())
                shortfalls.append(into - heard)
                while played() < start + UInt64(tone.count) && monotonicSeconds() < deadline { usleep(2000) }
                usleep(250_000)  // silence: the stream runs dry
            }
            sets.append(shortfalls)
        } while sets.count < 2 && ahead(sets[sets.count - 1]) > 1
        print("\(kind): samples of the tone not yet recorded when the stream said 150 ms were heard: \(sets)")
        #expect(sets.contains { ahead($0) <= 1 }, "the stream said \(into) samples were heard ahead of the monitor: \(sets)")
    }
}
