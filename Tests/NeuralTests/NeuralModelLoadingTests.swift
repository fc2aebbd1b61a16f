import AudioSinks
import Glibc
import Playback
import Speech
import System
import TestSupport
import Testing
import Voices

extension NeuralSynthesisTests {
    @Test func `a message asked for while its model loads is spoken by espeak-ng, the next by the model`() async throws
    {
        // 300 MB of weights: over a second to load here, far beyond the wait this rig allows.
        let large = try TinyVoice(["--padding", "300"])
        let expected = try await Expected.of(Self.ssml)
        let rig = try await NeuralRig.start(neural: .init(readyWait: 200_000_000))
        let voice = try voice(large)
        let first = try rig.speak(rig.job(Self.ssml, voice: voice))
        let logs = rig.logs.all
        let fallbacks = logs.filter { $0.contains("neural voice unavailable, the message is spoken by gmw/en-US") }
        #expect(fallbacks.count == 1, "\(logs)")
        #expect(fallbacks.first?.contains("\(large.model) is still loading after") == true, "\(fallbacks)")
        // Spoken by espeak-ng: not the model's sine of the expected length.
        guard case .audioStart(_, let start) = first.first, case .end(_, let end) = first.last else {
            Issue.record("unexpected events \(first)")
            return
        }
        #expect(Int(end - start) != expected.sentenceLengths.reduce(0, +))
        #expect(rootMeanSquare(rig.store.contents[Int(start)..<Int(end)]) > 300, "speech, not silence")
        // The message did not wait for the load: it ended before the model was there.
        #expect(!logs.contains { $0.contains("loaded in") }, "\(logs)")

        #expect(eventually(within: 60) { rig.synthesizer.neuralModels.loadedVoices == [voice] }, "\(rig.logs.all)")
        let second = try rig.speak(rig.job(Self.ssml, voice: voice))
        let afterwards = rig.logs.all
        rig.finish()
        #expect(afterwards.filter { $0.contains("neural voice unavailable") }.count == 1, "\(afterwards)")
        #expect(afterwards.contains { $0.contains("neural voice model \(large.model) loaded in") }, "\(afterwards)")
        check(second, against: expected, samples: rig.store.contents)
    }

    @Test func `a voice chosen ahead is loaded before its first message, which waits for nothing`() async throws {
        let tiny = try TinyVoice()
        let expected = try await Expected.of(Self.ssml)
        // No wait at all: only a model loaded before the message can speak it.
        let rig = try await NeuralRig.start(neural: .init(readyWait: 0))
        let voice = try voice(tiny)
        rig.synthesizer.prepare(voice)
        #expect(eventually(within: 60) { rig.synthesizer.neuralModels.loadedVoices == [voice] })
        let events = try rig.speak(rig.job(Self.ssml, voice: voice))
        rig.finish()
        #expect(!rig.logs.all.contains { $0.contains("neural voice unavailable") }, "\(rig.logs.all)")
        check(events, against: expected, samples: rig.store.contents)
    }

    @Test func `at most NeuralVoicesLoaded models stay loaded, and an unused one is released`() async throws {
        let first = try TinyVoice()
        let second = try TinyVoice()
        let third = try TinyVoice()
        let expected = try await Expected.of(Self.ssml)
        // Three seconds unused: far longer than the three loads take.
        let rig = try await NeuralRig.start(neural: .init(loadedLimit: 2, idleSeconds: 3))
        let (a, b, c) = (try voice(first), try voice(second), try voice(third))
        rig.synthesizer.prepare(a)
        #expect(eventually(within: 60) { rig.synthesizer.neuralModels.loadedVoices == [a] })
        rig.synthesizer.prepare(b)
        #expect(eventually(within: 60) { rig.synthesizer.neuralModels.loadedVoices.contains(b) })
        // A third: the one used longest ago goes first.
        rig.synthesizer.prepare(c)
        #expect(eventually(within: 60) { rig.synthesizer.neuralModels.loadedVoices.contains(c) }, "\(rig.logs.all)")
        #expect(!rig.synthesizer.neuralModels.loadedVoices.contains(a))
        #expect(
            rig.logs.all.contains { $0.contains("model \(first.model) released: NeuralVoicesLoaded 2 reached") },
            "\(rig.logs.all)")
        // Speaking keeps a model; unused for three seconds, every one is released.
        let events = try rig.speak(rig.job(Self.ssml, voice: c))
        check(events, against: expected, samples: rig.store.contents)
        #expect(eventually(within: 60) { rig.synthesizer.neuralModels.loadedVoices.isEmpty }, "\(rig.logs.all)")
        // Logged once its memory is handed back, after it left the list (slow under ASan).
        for tiny in [second, third] {
            #expect(
                eventually(within: 60) {
                    rig.logs.all.contains { $0.contains("model \(tiny.model) released: unused for 3 s (NeuralIdleSeconds)") }
                }, "\(rig.logs.all)")
        }
        // Released, it is loaded again when next needed.
        let again = try rig.speak(rig.job(Self.ssml, voice: c))
        rig.finish()
        #expect(!rig.logs.all.contains { $0.contains("neural voice unavailable") }, "\(rig.logs.all)")
        check(again, against: expected, samples: rig.store.contents)
    }

    @Test func `a voice asked for over and over while its idle time is checked never upsets the model thread`()
        async throws
    {
        // Each ask stamps the model as used and wakes the model thread, which then weighs every
        // model's idle time: an ask stamped after the thread read the clock once made that time
        // negative, and the process trapped (CI, stop 31).
        let tiny = try TinyVoice()
        let rig = try await NeuralRig.start(neural: .init(idleSeconds: 1))
        let voice = try voice(tiny)
        let store = rig.synthesizer.neuralModels
        store.prepare(voice)
        #expect(eventually(within: 60) { store.loadedVoices == [voice] }, "\(rig.logs.all)")
        let deadline = monotonicSeconds() + 1.5
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    while monotonicSeconds() < deadline { store.prepare(voice) }
                }
            }
        }
        // Still serving: unused from now, released after its idle second.
        #expect(eventually(within: 60) { store.loadedVoices.isEmpty }, "\(rig.logs.all)")
        rig.finish()
        #expect(
            rig.logs.all.contains { $0.contains("model \(tiny.model) released: unused for 1 s (NeuralIdleSeconds)") },
            "\(rig.logs.all)")
    }

    @Test func `a model that cannot load is named once and the messages are spoken by espeak-ng`() async throws {
        let broken = try TinyVoice()
        writeFile(broken.model, "not a model")
        let rig = try await NeuralRig.start()
        let voice = try voice(broken)
        rig.synthesizer.prepare(voice)
        for _ in 0..<2 {
            let events = try rig.speak(rig.job(Self.ssml, voice: voice))
            #expect(events.contains { if case .end = $0 { true } else { false } })
        }
        rig.finish()
        let logs = rig.logs.all
        #expect(logs.filter { $0.contains("neural voice model \(broken.model) cannot be used") }.count == 1, "\(logs)")
        #expect(logs.filter { $0.contains("neural voice unavailable, the message is spoken by gmw/en-US") }.count == 2)
        #expect(rootMeanSquare(rig.store.contents[...]) > 300)
    }
}
