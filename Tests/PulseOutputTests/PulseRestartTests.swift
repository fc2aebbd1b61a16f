import AudioStream
import AudioSinks
import Glibc
import PulseOutput
import System
import TestSupport
import Testing

/// 200 ms of a sound that is audible from its first sample to its last (a 300 Hz tone on an
/// offset, never under 3,000), so that the recording shows exactly which of its samples came out.
private let burst: [Int16] = (0..<4410).map { Int16(6000 + 3000 * sin(2 * Double.pi * 300 * Double($0) / 22050)) }

/// The audible runs of `samples` (at or above -40 dBFS; a gap of 1 ms or more ends a run: the
/// sounds never fall under it).
private func soundRuns(_ samples: [Int16]) -> [ArraySlice<Int16>] {
    soundStretches(samples, threshold: 299, gap: 22).map { samples[$0] }
}

/// Sounds that follow a libpulse stream that ran dry, sample by sample on the server's monitor
/// (issue 24: "the first frames lost after a libpulse stream ran dry").
///
/// Where those frames go: when new frames reach a PulseAudio stream that ran dry, the server
/// rewinds its sink, so that the sound starts at once over the silence the sink had already mixed
/// ahead ("Requesting rewind due to end of underrun"), and the monitor, which had already passed
/// that silence on, does not show the span that replaced it. pacat loses the same span in the same
/// recording. So the monitor must show each sound whole from the first sample after that span to
/// its last one: a frame lost, doubled or moved by the stream shows as a mismatch.
@Suite(.serialized)
struct PulseRestartTests {
    /// A first sound to wake the sink, then six of 200 ms, each after the stream ran dry: 3 ms
    /// after the last sound was heard (it starts again before it is corked, 10 ms after the sink
    /// played its last frame) or 400 ms after (corked, then uncorked). The
    /// private PulseAudio's null sink runs at the stream's rate: every sample is one recorded.
    @Test
    func `every sample of a sound after the stream ran dry comes out, but for the span the server rewound`()
        throws
    {
        let folder = TemporaryFolder(prefix: "utter-pulse-restart")
        let server = try PrivateSoundServer(runtime: folder.path + "/server", kind: .pulseAudio, debugLog: true)
        let wake = try EventFD()
        let sink = try PulseOutput.sink(
            sampleRate: 22050, periodFrames: 220, bufferFrames: 1760, server: "unix:\(server.socket)",
            sink: "utter_null", controlWake: wake)
        if let problem = sink.start() { Issue.record("the stream did not start: \(problem)") }
        defer { _ = sink.shutdown(until: MonotonicClock.now + 2_000_000_000) }
        let recording = try MonitorRecording(pulse: server, path: folder.file("heard.raw"))
        let gaps = [400, 3, 400, 3, 3, 400, 3]
        var rewindsBefore = 0
        var cut: [Int] = []
        for (index, gap) in gaps.enumerated() {
            let start = try sink.beginJob(UInt64(index + 1), continuing: false)
            _ = burst.withUnsafeBufferPointer { sink.write($0, isCancelled: { false }) }
            let deadline = monotonicSeconds() + 5
            while sink.playedPosition(at: MonotonicClock.now) < start + UInt64(burst.count) && monotonicSeconds() < deadline {
                usleep(1000)
            }
            usleep(useconds_t(gap * 1000))  // silence: the stream runs dry
            // The server's rewinds for this sound: none, or one (in frames) when it had run dry.
            let log = readText(server.runtime + "/pulse.log")
            let rewinds = nullSinkRewinds(log: log, dueTo: "end of underrun")
            cut.append(rewinds.dropFirst(rewindsBefore).reduce(0, +) / MemoryLayout<Int16>.size)
            rewindsBefore = rewinds.count
        }
        var runs = soundRuns(recording.finish())
        // The first sound only wakes the sink, and the monitor's recording starts during it: the
        // monitor may show it in pieces (CI: 2,738 then 1,402 samples), none of them judged. Those
        // pieces are one run again; each sound after it must come out as one run.
        while runs.count > gaps.count && runs[0].count + runs[1].count <= burst.count {
            runs[0...1] = [runs[0] + runs[1]]
        }
        try #require(runs.count == gaps.count, "one audible run per sound: \(runs.map(\.count))")
        print("PulseAudio: samples heard of each \(burst.count)-sample sound: \(runs.map(\.count)); rewound: \(cut)")
        // The first sound woke the sink: the monitor starts part-way into it. After 400 ms the
        // stream surely ran dry and the server rewound; after 3 ms it may not have yet on a loaded
        // machine (CI's AddressSanitizer stage heard one such sound whole, nothing rewound), and
        // then the sound must come out whole, which the comparison below checks.
        for index in runs.indices.dropFirst() where gaps[index - 1] >= 400 {
            #expect(cut[index] > 0, "sound \(index): the stream ran dry 400 ms before it, and the server rewound")
        }
        for (index, run) in runs.enumerated().dropFirst() {
            #expect(
                Array(run) == Array(burst[cut[index]...]),
                "sound \(index): \(run.count) samples heard, \(burst.count - cut[index]) expected after the \(cut[index]) rewound")
        }
    }
}
