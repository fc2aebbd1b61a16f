import Configuration
import Logging
import ModuleProtocol
import System
import TestSupport
import Testing
import UtterEngine
import Voices


private func logger(_ lines: LogLines) -> Logger {
    Logger(label: "test", factory: { _ in CapturingLogHandler(sink: lines, logLevel: .trace) })
}

/// ALSA capture devices `utter_capture0` and `utter_capture1`: the `file` plugin over `null`, raw
/// S16_LE into the folder (written out when the device closes).
private struct Capture {
    let folder = TemporaryFolder(prefix: "utter-pipeline-test")

    func device(_ index: Int) -> ALSADevice {
        let text =
            (0..<2).map {
                "pcm.utter_capture\($0) { type file slave.pcm \"utter_sink\" file \"\(folder.file("out\($0).raw"))\" format \"raw\" }\n"
            }.joined() + "pcm.utter_sink { type null }\n"
        return ALSADevice(name: "utter_capture\(index)", configurationText: text)
    }

    func samples(_ index: Int) -> [Int16] {
        littleEndianSamples(readFile(folder.file("out\(index).raw")) ?? [])
    }
}

/// Drives `speech` as the module's poll loop does until `job` is finished; the events heard, in
/// order (a 20 s deadline against a hang, not a timing assert).
private func events(of speech: SpeechPipeline, until job: UInt64) -> [MessageEvent] {
    var heard: [MessageEvent] = []
    let end = MonotonicClock.now + 20_000_000_000
    while MonotonicClock.now < end && !heard.contains(.finished(job: job)) {
        let now = MonotonicClock.now
        let timeout = min(speech.deadline.map { $0 > now ? $0 - now : 0 } ?? 50_000_000, 50_000_000)
        if case .success(let ready) = poll([speech.wake.rawValue], timeout: timeout), ready[0] { speech.wake.reset() }
        speech.pumpMessages { heard.append($0) }
    }
    return heard
}

@Suite(.serialized)
struct SpeechPipelineTests {
    @Test
    func
        `on ALSA's route a message is heard as started, its mark, finished, and the next plays on the device set since`()
        async throws
    {
        let capture = Capture()
        let configuration = UtterConfiguration()
        let route = SoundSession.Route(configuration: configuration, alsaAsked: true) { capture.device(0) }
        #expect(route.backend == .alsa && route.pluginServer == nil, "a file device is ALSA's: \(route)")
        await EngineTurns.take()
        defer { EngineTurns.release() }
        let lines = LogLines()
        let engine = try VoiceEngine()
        let factory = JobFactory(configuration: configuration, catalogue: VoiceCatalogue(voices: engine.voices()))
        let speech = try SpeechPipeline(
            engine: engine, output: route.output { capture.device(0) }, configuration: configuration,
            logger: logger(lines))
        #expect(speech.playsALSADevice)

        let text = "<speak>Hello <mark name=\"there\"/>there, this is the first device.</speak>"
        let (first, voice, _) = try #require(
            factory.message(id: 1, kind: .speak, text: text, settings: SpeechSettings()))
        #expect(first.id == 1 && first.soundFiles.isEmpty, "voice \(voice.name)")
        speech.submit(first)
        #expect(events(of: speech, until: 1) == [.started(job: 1), .mark(job: 1, name: "there"), .finished(job: 1)])
        speech.finish(through: 1)

        speech.setALSADevice(capture.device(1))
        let (second, _, _) = try #require(
            factory.message(id: 2, kind: .speak, text: "And the second one.", settings: SpeechSettings()))
        speech.submit(second)
        #expect(events(of: speech, until: 2) == [.started(job: 2), .finished(job: 2)])
        #expect(speech.shutdown(until: MonotonicClock.now + 5_000_000_000) == nil, "both threads stopped")

        let (one, two) = (capture.samples(0), capture.samples(1))
        // espeak-ng speaks each at 22,050 Hz for well over 0.5 s; silence would have no energy.
        #expect(one.count > 11_025 && rootMeanSquare(one) > 300, "\(one.count) samples, RMS \(rootMeanSquare(one))")
        #expect(two.count > 11_025 && rootMeanSquare(two) > 300, "\(two.count) samples, RMS \(rootMeanSquare(two))")
        #expect(one.count > two.count, "the first, longer message on the first device, the second on the second")
        #expect(lines.lines.withLock { $0.filter { $0.hasPrefix("error") } } == [])
    }

    @Test func `a STOP halts the message: no event of it is heard after, and the next one plays`() async throws {
        let capture = Capture()
        let configuration = UtterConfiguration()
        let route = SoundSession.Route(forALSA: capture.device(0))
        await EngineTurns.take()
        defer { EngineTurns.release() }
        let engine = try VoiceEngine()
        let factory = JobFactory(configuration: configuration, catalogue: VoiceCatalogue(voices: engine.voices()))
        let speech = try SpeechPipeline(
            engine: engine, output: route.output { capture.device(0) }, configuration: configuration,
            logger: logger(LogLines()))
        let long = String(repeating: "A sentence that goes on and on. ", count: 40) + "<mark name=\"end\"/>"
        let (first, _, _) = try #require(
            factory.message(id: 1, kind: .speak, text: "<speak>\(long)</speak>", settings: SpeechSettings()))
        speech.submit(first)
        var heard: [MessageEvent] = []
        let end = MonotonicClock.now + 20_000_000_000
        while !heard.contains(.started(job: 1)) && MonotonicClock.now < end {
            _ = poll([speech.wake.rawValue], timeout: 10_000_000)
            speech.wake.reset()
            speech.pumpMessages { heard.append($0) }
        }
        #expect(heard == [.started(job: 1)])
        speech.halt(through: 1)
        let (second, _, _) = try #require(
            factory.message(id: 2, kind: .speak, text: "Next.", settings: SpeechSettings()))
        speech.submit(second)
        #expect(events(of: speech, until: 2) == [.started(job: 2), .finished(job: 2)], "nothing of message 1")
        #expect(speech.shutdown(until: MonotonicClock.now + 5_000_000_000) == nil)
    }

    @Test func `an ALSA device that is a sound server's plugin routes to that server's backend, and the log says so`() {
        let text = """
            pcm.speakers { type plug slave.pcm "server" }
            pcm.server { type pulse server "unix:/nonexistent/pulse/native" device "utter_null" }
            pcm.graph { type pipewire server "pipewire-utter" playback_node "speakers" }

            """
        let pulse = SoundSession.Route(forALSA: ALSADevice(name: "speakers", configurationText: text))
        #expect(pulse.backend == .pulse && pulse.pluginServer == "PulseAudio")
        let lines = LogLines()
        pulse.logPlugin(device: "speakers", to: logger(lines))
        #expect(
            lines.lines.withLock { $0 }
                == [
                    "notice: audio backend: pulse, for ALSA's device 'speakers', which is PulseAudio's plugin at unix:/nonexistent/pulse/native, sink utter_null (AudioBackend auto: a STOP fades there, through the plugin it would cut)"
                ])

        let pipeWire = SoundSession.Route(forALSA: ALSADevice(name: "graph", configurationText: text))
        #expect(pipeWire.backend == .pipewire && pipeWire.pluginServer == "PipeWire")
        let warnings = LogLines()
        pipeWire.logPlugin(device: "graph", to: logger(warnings))
        #expect(
            warnings.lines.withLock { $0.last }
                == "warning: the plugin's playback_node speakers is not followed: Utter plays to PipeWire's default")
    }

    @Test func `the ALSA device is read only when AudioBackend auto must look at it, and a chosen backend is kept`() {
        var chosen = UtterConfiguration()
        chosen.audioBackend = .pulse
        var reads = 0
        let route = SoundSession.Route(configuration: chosen, alsaAsked: true) {
            reads += 1
            return ALSADevice(name: "default", configurationText: nil)
        }
        #expect(route.backend == .pulse && route.pluginServer == nil && reads == 0)
        let plain = ALSADevice(name: "card", configurationText: "pcm.card { type null }\n")
        let auto = SoundSession.Route(configuration: UtterConfiguration(), alsaAsked: true) {
            reads += 1
            return plain
        }
        #expect(auto.backend == .alsa && reads == 1)
        let logged = LogLines()
        func name() -> String {
            reads += 1
            return "card"
        }
        auto.logPlugin(device: name(), to: logger(logged))
        #expect(reads == 1 && logged.lines.withLock { $0.isEmpty }, "no plugin: nothing said, the device not read")
    }
}
