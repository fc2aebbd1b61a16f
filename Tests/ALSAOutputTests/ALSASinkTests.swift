import ALSAOutput
import AudioSinks
import System
import TestSupport
import Glibc
import Testing

/// A capture device made by the test: ALSA's `file` plugin over `null`, writing raw S16_LE to a temp dir.
///
/// Unpaced (testing.md §1): audio "plays" as fast as it is written and `snd_pcm_delay` stays 0, so
/// every assertion is in the sample domain. The file plugin only flushes what it holds when the PCM
/// is dropped or closed, so tests read the file after `shutdown()`.
final class Capture {
    private let folder = TemporaryFolder(prefix: "utter-audio-test")
    let files: [String]

    init(files: Int = 1) {
        let folder = folder
        self.files = (0..<files).map { folder.file("out\($0).raw") }
    }

    /// ALSA configuration text defining `utter_capture<n>` for each file.
    var configText: String {
        files.indices.map { index in
            """
            pcm.utter_capture\(index) { type file slave.pcm "utter_sink" file "\(files[index])" format "raw" }
            """
        }.joined(separator: "\n") + "\npcm.utter_sink { type null }\n"
    }

    func configuration(device index: Int = 0, ringCapacity: Int = 1 << 12) -> AudioConfiguration {
        AudioConfiguration(
            deviceName: "utter_capture\(index)", alsaConfigText: configText, ringCapacity: ringCapacity)
    }

    /// The samples in capture file `index`.
    func samples(_ index: Int = 0) -> [Int16] {
        littleEndianSamples(readFile(files[index]) ?? [])
    }
}

/// A recognisable ramp per job, so stale samples from another job show.
func signal(count: Int, job: Int) -> [Int16] {
    (0..<count).map { Int16(truncatingIfNeeded: $0 &* 37 &+ job &* 10007) }
}

extension ALSASink {
    func write(_ samples: [Int16]) -> Bool {
        samples.withUnsafeBufferPointer { write($0, isCancelled: { false }) }
    }
}

/// Waits up to 10 s for an eventfd to become readable, then resets it; false on timeout.
func waitForWake(_ fd: Int32, timeoutMilliseconds: Int32 = 10_000) -> Bool {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, timeoutMilliseconds) == 1 else { return false }
    var counter: UInt64 = 0
    _ = read(fd, &counter, 8)
    return true
}

@Suite struct ALSASinkTests {
    let control = try! EventFD()

    @Test func `plays every sample byte for byte`() throws {
        let capture = Capture()
        let output = try ALSASink(configuration: capture.configuration(), controlWake: control)
        output.start()
        let start = try output.beginJob(1)
        #expect(start == 0)
        // Five times the ring: the producer waits for room and the copies wrap.
        let samples = signal(count: 20_000, job: 1)
        #expect(output.write(samples))
        #expect(eventually { output.playedPosition >= 20_000 })
        #expect(output.playedPosition == 20_000)
        output.shutdown()
        #expect(capture.samples() == samples)
        #expect(output.deviceFailureCount == 0)
    }

    @Test func `stop discards queued samples and the next job starts clean`() throws {
        let capture = Capture()
        let output = try ALSASink(configuration: capture.configuration(), controlWake: control)
        output.start()
        let first = try output.beginJob(1)
        // Hold samples back in the ring, so the stop has queued samples to discard.
        output.limitPlayback(to: first + 300)
        let before = signal(count: 1000, job: 1)
        #expect(output.write(before))
        #expect(eventually { output.playedPosition >= first + 300 })

        output.stop(job: 1)
        #expect(waitForWake(control.rawValue))
        // The stopped job's producer may still write; none of it may play.
        #expect(output.write(signal(count: 500, job: 3)))
        #expect(eventually { output.playedPosition >= output.writePosition })

        // The control thread lifts the limit before it hands the next job over.
        output.limitPlayback(to: nil)
        let second = try output.beginJob(2)
        #expect(second == 1500)
        let after = signal(count: 700, job: 2)
        #expect(output.write(after))
        #expect(eventually { output.playedPosition >= second + 700 })
        output.shutdown()
        #expect(capture.samples() == Array(before[0..<300]) + after)
    }

    @Test func `a new job drops what a paused job left in the ring`() throws {
        let capture = Capture()
        let output = try ALSASink(configuration: capture.configuration(), controlWake: control)
        output.start()
        let first = try output.beginJob(1)
        output.limitPlayback(to: first + 250)
        let paused = signal(count: 900, job: 1)
        #expect(output.write(paused))
        #expect(eventually { output.playedPosition >= first + 250 })

        // As the control thread does: the paused job is halted, then the limit lifted for the next.
        output.stop(job: 1)
        output.limitPlayback(to: nil)
        let second = try output.beginJob(2)
        let next = signal(count: 400, job: 2)
        #expect(output.write(next))
        #expect(eventually { output.playedPosition >= second + 400 })
        output.shutdown()
        #expect(capture.samples() == Array(paused[0..<250]) + next)
    }

    @Test func `limitPlayback stops at exactly the given position`() throws {
        let capture = Capture()
        let output = try ALSASink(configuration: capture.configuration(), controlWake: control)
        output.start()
        let start = try output.beginJob(1)
        output.limitPlayback(to: start + 1234)
        let samples = signal(count: 3000, job: 1)
        #expect(output.write(samples))
        #expect(eventually { output.playedPosition >= start + 1234 })
        #expect(output.playedPosition == 1234)
        output.shutdown()
        #expect(capture.samples() == Array(samples[0..<1234]))
    }

    @Test func `lifting the limit plays the rest`() throws {
        let capture = Capture()
        let output = try ALSASink(configuration: capture.configuration(), controlWake: control)
        output.start()
        let start = try output.beginJob(1)
        output.limitPlayback(to: start + 500)
        let samples = signal(count: 2000, job: 1)
        #expect(output.write(samples))
        #expect(eventually { output.playedPosition >= start + 500 })
        output.limitPlayback(to: nil)
        #expect(eventually { output.playedPosition >= start + 2000 })
        output.shutdown()
        #expect(capture.samples() == samples)
    }

    @Test func `notify wakes the control eventfd once the played position reaches it`() throws {
        let capture = Capture()
        let output = try ALSASink(configuration: capture.configuration(), controlWake: control)
        output.start()
        let start = try output.beginJob(1)
        output.notify(whenPlayedReaches: start + 3000)
        #expect(!waitForWake(control.rawValue, timeoutMilliseconds: 0))
        #expect(output.write(signal(count: 2000, job: 1)))
        #expect(eventually { output.playedPosition >= start + 2000 })
        #expect(!waitForWake(control.rawValue, timeoutMilliseconds: 0))
        #expect(output.write(signal(count: 2000, job: 1)))
        #expect(waitForWake(control.rawValue))
        #expect(output.playedPosition >= start + 3000)
        output.shutdown()
    }

    @Test func `a missing device throws a readable error and plays nothing as if played`() throws {
        let configuration = AudioConfiguration(deviceName: "utter_no_such_device", ringCapacity: 1 << 10)
        let output = try ALSASink(configuration: configuration, controlWake: control)
        output.start()
        let error = #expect(throws: ALSAError.self) { _ = try output.beginJob(1) }
        #expect(error?.device == "utter_no_such_device")
        #expect(error?.operation == "open the device")
        #expect(error?.description.hasPrefix("ALSA could not open the device on 'utter_no_such_device': ") == true)
        #expect(error?.description.contains("aplay -L") == true)
        // Four times the ring: the render thread must keep discarding for the producer to finish.
        #expect(output.write(signal(count: 4096, job: 1)))
        #expect(eventually { output.playedPosition >= 4096 })
        // The next job tries again, and fails the same way.
        #expect(throws: ALSAError.self) { _ = try output.beginJob(2) }
        output.shutdown()
    }

    @Test func `setDevice switches devices at the next job`() throws {
        let capture = Capture(files: 2)
        let output = try ALSASink(configuration: capture.configuration(device: 0), controlWake: control)
        output.start()
        _ = try output.beginJob(1)
        let first = signal(count: 1500, job: 1)
        #expect(output.write(first))
        #expect(eventually { output.playedPosition >= 1500 })

        output.setDevice(capture.configuration(device: 1))
        #expect(output.configuration.deviceName == "utter_capture1")
        let start = try output.beginJob(2)
        let second = signal(count: 2500, job: 2)
        #expect(output.write(second))
        #expect(eventually { output.playedPosition >= start + 2500 })
        output.shutdown()
        #expect(capture.samples(0) == first)
        #expect(capture.samples(1) == second)
    }

    @Test func `a cancelled producer stops waiting for room`() throws {
        let capture = Capture()
        let output = try ALSASink(configuration: capture.configuration(ringCapacity: 1 << 10), controlWake: control)
        output.start()
        let start = try output.beginJob(1)
        // The limit keeps the ring full, so only cancellation can end the write.
        output.limitPlayback(to: start)
        let samples = signal(count: 5000, job: 1)
        let finished = samples.withUnsafeBufferPointer { output.write($0, isCancelled: { true }) }
        #expect(!finished)
        #expect(output.writePosition == start + 1024)
        output.shutdown()
    }
}
