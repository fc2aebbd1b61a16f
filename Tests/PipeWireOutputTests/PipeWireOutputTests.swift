import ALSAOutput
import AudioStream
import AudioSinks
import Glibc
import PipeWireOutput
import System
import TestSupport
import Testing

/// A private PipeWire (with WirePlumber and its null sink) and a ``StreamSink`` playing to it
/// through PipeWire's native protocol, driven here as the synth and control threads drive it.
private final class PipeWireRig {
    let folder = TemporaryFolder(prefix: "utter-pipewire-test")
    let server: PrivateSoundServer
    let controlWake: EventFD
    let sink: StreamSink
    /// The threads the sink brought: PipeWire's data thread and the thread loop's.
    let sinkThreads: Set<String>
    private var job: UInt64 = 0
    static let rate = 22050

    init() throws {
        server = try PrivateSoundServer(runtime: folder.path + "/server", kind: .pipeWire)
        controlWake = try EventFD()
        let before = threadIDs()
        // A 20 ms period; the socket's path as the remote, so nothing of the session is used.
        sink = try PipeWireOutput.sink(
            sampleRate: Self.rate, periodFrames: 441, ringCapacity: 1 << 17, remote: server.runtime + "/pipewire-0",
            controlWake: controlWake)
        _ = sink.start()
        sinkThreads = threadIDs().subtracting(before)
    }

    /// How many times the sink's threads were switched to (woken) during `seconds`.
    func wakeups(during seconds: Double) -> Int {
        let before = contextSwitches(sinkThreads)
        usleep(UInt32(seconds * 1_000_000))
        return contextSwitches(sinkThreads) - before
    }

    /// Begins the next job and writes `samples`: the job and its range of ring positions.
    /// Throws what `beginJob` throws (the server cannot be reached); the samples are written anyway.
    func play(_ samples: [Int16]) throws -> (job: UInt64, range: Range<UInt64>) {
        job += 1
        var failure: (any Error)? = nil
        var start = sink.writePosition
        do {
            start = try sink.beginJob(job, continuing: false)
        } catch {
            failure = error
        }
        _ = samples.withUnsafeBufferPointer { sink.write($0, isCancelled: { false }) }
        if let failure { throw failure }
        return (job, start..<start + UInt64(samples.count))
    }

    var played: UInt64 { sink.playedPosition(at: MonotonicClock.now) }

    /// Waits until the played position reaches `position`; false if it did not within `seconds`.
    func waitUntilPlayed(_ position: UInt64, within seconds: Double) -> Bool {
        let deadline = monotonicSeconds() + seconds
        while played < position {
            guard monotonicSeconds() < deadline else { return false }
            usleep(10_000)
        }
        return true
    }

    /// The state of our stream's node as PipeWire reports it ("running", "idle", ...).
    func streamNodeState() -> String? {
        let dump = ChildProcess.run(["/usr/bin/pw-dump"], environment: server.environment, timeout: 10).standardOutput
        // pw-dump prints a JSON array, one object per line-indented block; ours is the node named "utter".
        for object in dump.split(separator: "\n  {\n") where object.contains("\"node.name\": \"utter\"") {
            guard object.contains("PipeWire:Interface:Node") else { continue }
            for line in object.split(separator: "\n") {
                guard let key = line.firstRange(of: "\"state\": \"") else { continue }
                return String(line[key.upperBound...].prefix { $0 != "\"" })
            }
        }
        return nil
    }

    func recording(_ name: String) throws -> MonitorRecording {
        try MonitorRecording(pulse: server, path: folder.file(name))
    }

    /// A second recorder of the same monitor in a process of its own (pw-record, at parec's 5 ms).
    func secondRecording(_ name: String) throws -> NativeMonitorRecording {
        try NativeMonitorRecording(pulse: server, path: folder.file(name), latencyMilliseconds: 5)
    }
}

/// `seconds` of a 441 Hz sine at 22050 Hz (50 samples a cycle: neighbours differ by at most ~2,000).
private func tone(seconds: Double) -> [Int16] {
    TestSupport.tone(frequency: 441, seconds: seconds, amplitude: 16000, sampleRate: PipeWireRig.rate)
}

/// The runs of audible samples (300 and up), split at gaps of silence of 100 ms or more.
private func audibleRuns(_ samples: [Int16]) -> [ClosedRange<Int>] {
    soundStretches(samples, threshold: 299, gap: 2204)
}

/// The samples of `run` that sound: its length less the dropouts within it (quiet for half a
/// cycle of the tone or more). On a loaded machine the stream can miss a quantum and PipeWire plays
/// silence in its place; the tone then goes on, late but whole. Whether a tone was clipped is judged
/// by what was heard of it, not by how long it took.
private func heardSamples(_ samples: [Int16], in run: ClosedRange<Int>) -> (heard: Int, dropouts: [Int]) {
    let dropouts = quietRuns(Array(samples[run]), atLeast: 25).map(\.count)
    return (run.count - dropouts.reduce(0, +), dropouts)
}

/// A job whose start can be told from the rest: 2,200 samples (88 cycles, so the phase runs on)
/// of an 882 Hz tone, then 441 Hz to 0.5 s in all. What is heard of the lead says whether the
/// job was heard from its first sample, whatever became of the rest.
private func ledTone() -> [Int16] {
    TestSupport.tone(frequency: 882, seconds: 2200.0 / 22050, amplitude: 16000, sampleRate: PipeWireRig.rate)
        + tone(seconds: 8825.0 / 22050)
}

/// How much of ``ledTone()``'s 882 Hz lead `run` holds: from its start to the end of its last
/// 882 Hz cycle (rising zero crossings 22-28 samples apart) before the first three 441 Hz cycles in
/// a row (45-55 apart), less dropouts before that end. (To the first of those three, as it was, a
/// dropout in the 441 Hz tone's first cycles counted the cycles before it as lead: 2,487 samples
/// once under the suite's load.)
private func leadHeard(_ samples: [Int16], in run: ClosedRange<Int>) -> Int? {
    let run = Array(samples[run])
    let rising = (1..<run.count).filter { run[$0 - 1] < 0 && run[$0] >= 0 }
    guard rising.count > 3 else { return nil }
    for index in 0..<rising.count - 3 {
        let cycles = (0..<3).map { rising[index + $0 + 1] - rising[index + $0] }
        guard cycles.allSatisfy({ (45...55).contains($0) }) else { continue }
        let lastLeadCycle = (0..<index).last { (22...28).contains(rising[$0 + 1] - rising[$0]) }
        guard let last = lastLeadCycle else { return nil }
        let end = rising[last + 1]
        let dropouts = quietRuns(Array(run[..<end]), atLeast: 25).map(\.count)
        return end - dropouts.reduce(0, +)
    }
    return nil
}

/// The largest difference between neighbouring samples in `samples[range]`.
private func largestStep(_ samples: [Int16], in range: Range<Int>) -> Int32 {
    let range = max(range.lowerBound, 1)..<min(range.upperBound, samples.count)
    return range.map { abs(Int32(samples[$0]) - Int32(samples[$0 - 1])) }.max() ?? 0
}

/// The ids of this process's threads.
private func threadIDs() -> Set<String> {
    var ids: Set<String> = []
    guard let folder = opendir("/proc/self/task") else { return ids }
    defer { closedir(folder) }
    while let entry = readdir(folder) {
        let id = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if id.first?.isNumber == true { ids.insert(id) }
    }
    return ids
}

/// The context switches (voluntary and not) of the threads `ids` so far.
private func contextSwitches(_ ids: Set<String>) -> Int {
    var total = 0
    for id in ids {
        let status = readText("/proc/self/task/\(id)/status")
        for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
            total += Int(line.split(separator: "\t").last ?? "") ?? 0
        }
    }
    return total
}

private func seconds(_ frames: Int) -> Double { Double(frames) / Double(PipeWireRig.rate) }

/// One PipeWire at a time, as the other sound-server suites: they are heavy on a two-core machine.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct PipeWireOutputTests {
    @Test func `a one-second tone is heard whole and its played position reaches its end`() throws {
        let rig = try PipeWireRig()
        let monitor = try rig.recording("tone.raw")
        let began = monotonicSeconds()
        let (_, range) = try rig.play(tone(seconds: 1))
        #expect(rig.waitUntilPlayed(range.upperBound, within: 10), "played \(rig.played) of \(range)")
        let took = monotonicSeconds() - began
        // The position follows the device, not the writes (all done in microseconds).
        #expect(took > 0.8, "the end was reported played \(took) s after the start")
        usleep(300_000)
        let samples = monitor.finish()
        let runs = audibleRuns(samples)
        try #require(runs.count == 1, "one tone heard: \(runs)")
        #expect(abs(seconds(runs[0].count) - 1) < 0.05, "heard for \(seconds(runs[0].count)) s")
        #expect(rig.played == range.upperBound, "the position stays at the end")
        #expect(rig.sink.health.failures == 0)
        #expect(rig.sink.shutdown(until: MonotonicClock.now + 2_000_000_000))
    }

    @Test func `STOP mid-tone fades out within about a quantum, without a click`() throws {
        let rig = try PipeWireRig()
        let monitor = try rig.recording("stop.raw")
        let (job, range) = try rig.play(tone(seconds: 3))
        #expect(monitor.waitUntilHeard(within: 10), "the tone starts playing")
        #expect(rig.waitUntilPlayed(range.lowerBound + 4410, within: 10))
        usleep(300_000)
        let playedAtStop = rig.played
        rig.sink.stop(job: job)
        // The stream's queue (one quantum) and the fade play out; the rest of the job is dropped.
        #expect(rig.waitUntilPlayed(range.upperBound, within: 5), "the stopped job's positions complete")
        #expect(rig.controlWake.reset(), "the control thread was woken")
        usleep(400_000)
        let samples = monitor.finish()
        let runs = audibleRuns(samples)
        try #require(runs.count == 1, "one tone heard: \(runs)")
        let heard = seconds(runs[0].count)
        let expected = seconds(Int(playedAtStop - range.lowerBound))
        // The position at the STOP against what was heard: a quantum, the fade, and the
        // recording's own latency apart at most, generously.
        #expect(heard - expected < 0.15 && heard - expected > -0.15, "heard \(heard) s, played \(expected) s at STOP")
        #expect(heard < 2, "the tone was cut short")
        let middle = runs[0].lowerBound + 2205..<runs[0].lowerBound + 6615
        let toneStep = largestStep(samples, in: middle)
        let cutStep = largestStep(samples, in: runs[0].upperBound - 441..<runs[0].upperBound + 441)
        // A cut from full amplitude steps by up to 16,000; faded, no step is larger than the tone's own.
        #expect(cutStep <= toneStep + toneStep / 10, "step at the cut \(cutStep), in the tone \(toneStep)")
        #expect(rig.sink.health.fadedStops == 1)
        #expect(rig.sink.health.cutStops == 0)
    }

    @Test func `the stream sleeps while idle and the next job is heard from its first samples`() throws {
        let rig = try PipeWireRig()
        let monitor = try rig.recording("idle.raw")
        let again = try rig.secondRecording("idle-again.wav")
        let (_, first) = try rig.play(tone(seconds: 0.5))
        #expect(monitor.waitUntilHeard(within: 10))
        // Playing, a 20 ms quantum wakes the data thread about 50 times a second.
        let playing = rig.wakeups(during: 0.2)
        #expect(playing >= 3, "the sink's threads \(rig.sinkThreads) woke \(playing) times in 0.2 s of playing")
        #expect(rig.waitUntilPlayed(first.upperBound, within: 10))
        // Idle: after 50 ms of silence the stream is deactivated; PipeWire reports it idle.
        let deadline = monotonicSeconds() + 5
        var state = rig.streamNodeState()
        while state == "running" && monotonicSeconds() < deadline {
            usleep(100_000)
            state = rig.streamNodeState()
        }
        #expect(state != nil && state != "running", "the stream is inactive while idle: \(state ?? "gone")")
        usleep(200_000)
        let idle = rig.wakeups(during: 1)
        #expect(idle <= 3, "the sink's threads woke \(idle) times in 1 s of idling")

        let (_, second) = try rig.play(ledTone())
        #expect(rig.waitUntilPlayed(second.upperBound, within: 10))
        usleep(300_000)
        // Heard from its first sample: the whole 2,200-sample lead, within 2 ms (a tenth of the 20 ms
        // quantum that a stream woken late would drop). (Its lead, not its length, is what
        // says so: under CI's load 705 samples of the first tone once went unrecorded, with no silence in
        // their place, and once a quantum of silence was heard within the second, the tone whole around it.)
        // Judged on two recordings: a recorder that misses a cycle loses samples (455 of the second
        // tone once, beside three dropouts), which can shorten the lead; a late wake drops them
        // for both recorders alike, and no recorder adds lead that was not played.
        let judgements = [monitor.finish(), again.finish()].map { samples -> (whole: Bool, report: String) in
            let runs = audibleRuns(samples)
            guard runs.count == 2 else { return (false, "tones heard: \(runs)") }
            let lead = leadHeard(samples, in: runs[1])
            let two = heardSamples(samples, in: runs[1])
            let whole = lead.map { abs($0 - 2200) <= 44 } == true && abs(seconds(two.heard) - 0.5) < 0.05
            let heard = lead.map(String.init) ?? "none"
            return (whole, "lead heard over \(heard) samples, the tone \(two.heard), dropouts \(two.dropouts)")
        }
        #expect(judgements.contains { $0.whole }, "parec: \(judgements[0].report); pw-record: \(judgements[1].report)")
        #expect(rig.sink.health.failures == 0)
    }

    @Test func `a playback limit holds the rest back while the stream sleeps, and lifting it plays on`() throws {
        let rig = try PipeWireRig()
        let monitor = try rig.recording("limit.raw")
        let limit = rig.sink.writePosition + 6615
        rig.sink.limitPlayback(to: limit)
        let (_, range) = try rig.play(tone(seconds: 1))
        #expect(rig.waitUntilPlayed(limit, within: 10), "played \(rig.played) of \(range), limit \(limit)")
        // Held at the limit: nothing to play, so the stream goes to sleep; the position stays.
        let deadline = monotonicSeconds() + 5
        var state = rig.streamNodeState()
        while state == "running" && monotonicSeconds() < deadline {
            usleep(100_000)
            state = rig.streamNodeState()
        }
        #expect(state != nil && state != "running", "the stream sleeps while held: \(state ?? "gone")")
        #expect(rig.played == limit, "the position stays at the limit")
        rig.sink.limitPlayback(to: nil)
        #expect(rig.waitUntilPlayed(range.upperBound, within: 10), "the rest plays once the limit is lifted")
        usleep(300_000)
        let samples = monitor.finish()
        let runs = audibleRuns(samples)
        try #require(runs.count == 2, "the tone heard in two parts: \(runs)")
        let (before, after) = (heardSamples(samples, in: runs[0]), heardSamples(samples, in: runs[1]))
        #expect(abs(seconds(before.heard) - 0.3) < 0.03, "heard \(seconds(before.heard)) s before the limit, dropouts \(before.dropouts)")
        #expect(abs(seconds(after.heard) - 0.7) < 0.03, "heard \(seconds(after.heard)) s after it, dropouts \(after.dropouts)")
    }

    @Test func `the server dying counts a failure, positions still complete, and a new server plays again`() throws {
        let rig = try PipeWireRig()
        let monitor = try rig.recording("before.raw")
        let (_, dying) = try rig.play(tone(seconds: 2))
        #expect(monitor.waitUntilHeard(within: 10))
        _ = monitor.finish()
        rig.server.kill()
        // With no stream the ring's frames are discarded at the sample rate: the job still ends.
        #expect(rig.waitUntilPlayed(dying.upperBound, within: 10), "played \(rig.played) of \(dying)")
        #expect(rig.sink.health.failures >= 1)
        #expect(rig.sink.health.lastFailure != nil)

        // While the server is away, a job cannot connect, says why, and its positions complete.
        var unreachable: (any Error)? = nil
        var lost: Range<UInt64>? = nil
        do {
            lost = try rig.play(tone(seconds: 0.3)).range
        } catch {
            unreachable = error
        }
        let error = try #require(unreachable, "beginJob fails while the server is away")
        #expect("\(error)".contains("PipeWire"), "\(error)")
        #expect(rig.waitUntilPlayed(rig.sink.writePosition, within: 10), "the unheard job's positions complete")
        _ = lost

        try rig.server.start()
        let again = try rig.recording("after.raw")
        let (_, back) = try rig.play(tone(seconds: 0.5))
        #expect(again.waitUntilHeard(within: 10), "the new server plays")
        #expect(rig.waitUntilPlayed(back.upperBound, within: 10))
        #expect(rig.sink.shutdown(until: MonotonicClock.now + 2_000_000_000))
    }

    @Test func `a frozen server cannot hold shutdown past its deadline`() throws {
        let rig = try PipeWireRig()
        let (_, range) = try rig.play(tone(seconds: 2))
        #expect(rig.waitUntilPlayed(range.lowerBound + 2205, within: 10))
        rig.server.freeze()
        let began = monotonicSeconds()
        _ = rig.sink.shutdown(until: MonotonicClock.now + 500_000_000)
        let took = monotonicSeconds() - began
        rig.server.thaw()
        // The deadline plus scheduling on a busy machine.
        #expect(took < 1.5, "shutdown took \(took) s")
        #expect(rig.sink.shutdown(until: MonotonicClock.now + 5_000_000_000), "it completes once the server runs")
    }
}
