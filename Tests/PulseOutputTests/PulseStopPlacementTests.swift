import AudioStream
import AudioSinks
import Glibc
import PulseOutput
import System
import TestSupport
import Testing

/// 1.5 s of a 300 Hz tone.
private let tone = TestSupport.tone(frequency: 300, seconds: 1.5, amplitude: 8000)

/// Where a STOP's fade starts on PulseAudio, whose sinks mix ahead of what the listener hears.
@Suite(.serialized)
struct PulseStopPlacementTests {
    /// On a sink that rewinds (the null sink, like PulseAudio's ALSA sinks, has dynamic latency),
    /// a STOP in a stream that has played a while starts its fade where the listener is, before
    /// the server's read index: the server must take back what its sink mixed past that point, at
    /// every STOP. (A fade placed after the read index is heard only once the sink has played what
    /// it mixed ahead: the stream's latency, tens of milliseconds on a desktop.)
    @Test
    func `a STOP on a sink that rewinds has the server take back what the sink mixed ahead of the listener`()
        throws
    {
        let folder = TemporaryFolder(prefix: "utter-pulse-stop")
        let server = try PrivateSoundServer(runtime: folder.path + "/server", kind: .pulseAudio, debugLog: true)
        let health = try stopFourTimes(on: server, sink: "utter_null")
        let log = readText(server.runtime + "/pulse.log")
        let rewinds = nullSinkRewinds(log: log, dueTo: "rewrite")
        print("PulseAudio: bytes rewound for the \(stops) STOPs' rewrites: \(rewinds)")
        #expect(rewinds.count == stops, "one rewind per STOP: \(rewinds)")
        #expect(rewinds.allSatisfy { $0 > 0 }, "every rewind took back frames the sink had mixed: \(rewinds)")
        #expect(health.fadedStops == stops && health.cutStops == 0, "faded \(health.fadedStops), cut \(health.cutStops)")
        #expect(health.failures == 0)
    }

    /// A sink without dynamic latency (PulseAudio's pipe sink here; Bluetooth and network sinks
    /// alike) plays what it mixed whatever is rewritten: a fade placed before the server's read
    /// index would be skipped, a cut. There every fade goes after the read index: the server is
    /// never asked to rewind for it.
    @Test
    func `a STOP on a sink that cannot rewind starts its fade after what the server has read`() throws {
        let folder = TemporaryFolder(prefix: "utter-pulse-stop-pipe")
        let fifo = folder.file("pipe")
        let server = try PrivateSoundServer(
            runtime: folder.path + "/server", kind: .pulseAudio,
            modules: [
                "module-pipe-sink sink_name=utter_pipe file=\(fifo) rate=22050 channels=1 use_system_clock_for_timing=yes"
            ],
            debugLog: true)
        let deadline = monotonicSeconds() + 5
        while access(fifo, F_OK) != 0 && monotonicSeconds() < deadline { usleep(10_000) }
        // Something must read the pipe for the sink to play.
        let reader = try server.spawnClient(["/bin/cat", fifo])
        defer {
            kill(reader, SIGTERM)
            var status: Int32 = 0
            waitpid(reader, &status, 0)
        }
        let health = try stopFourTimes(on: server, sink: "utter_pipe")
        let log = readText(server.runtime + "/pulse.log")
        let rewrites = log.split(separator: "\n").filter { $0.contains("Requesting rewind due to rewrite") }.count
        print("PulseAudio, pipe sink: rewinds asked for the \(stops) STOPs' rewrites: \(rewrites)")
        #expect(rewrites == 0, "the fade went before the read index of a sink that cannot rewind")
        #expect(health.fadedStops == stops && health.cutStops == 0, "faded \(health.fadedStops), cut \(health.cutStops)")
        #expect(health.failures == 0)
    }

    private let stops = 4

    /// Plays the tone on `sink` and stops it about 400 ms in, `stops` times; the sink's health after.
    private func stopFourTimes(on server: PrivateSoundServer, sink name: String) throws -> SinkHealth {
        let wake = try EventFD()
        // A buffer of 200 ms: the server splits it between its sink and our queue, so the sink mixes
        // tens of milliseconds ahead of the listener, as a desktop's does.
        let sink = try PulseOutput.sink(
            sampleRate: 22050, periodFrames: 220, bufferFrames: 4410, server: "unix:\(server.socket)", sink: name,
            controlWake: wake)
        if let problem = sink.start() { Issue.record("the stream did not start: \(problem)") }
        defer { _ = sink.shutdown(until: MonotonicClock.now + 2_000_000_000) }
        for job in UInt64(1)...UInt64(stops) {
            let start = try sink.beginJob(job, continuing: false)
            _ = tone.withUnsafeBufferPointer { sink.write($0, isCancelled: { false }) }
            let deadline = monotonicSeconds() + 5
            // 400 ms into the tone, a little more each time (another phase of the sink's cycle).
            let into = start + 8820 + job * 97
            while sink.playedPosition(at: MonotonicClock.now) < into && monotonicSeconds() < deadline { usleep(500) }
            sink.stop(job: job)
            usleep(400_000)
        }
        return sink.health
    }
}
