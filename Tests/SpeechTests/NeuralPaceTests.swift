import Testing

@testable import Speech

/// When a key or character on a neural voice is handed to its espeak-ng voice (`NeuralEcho auto`).
@Suite struct NeuralPaceTests {
    @Test func `a voice that has not spoken is handed over, once said why`() {
        var pace = NeuralPace()
        #expect(pace.echoMilliseconds(model: "/joe.onnx") == nil)
        let first = pace.handsOver(model: "/joe.onnx", budget: 80)
        #expect(first.handsOver)
        #expect(first.why == "it has not spoken yet, so how soon it would be heard is not known")
        let second = pace.handsOver(model: "/joe.onnx", budget: 80)
        #expect(second.handsOver && second.why == nil, "logged once per voice")
    }

    @Test func `a fast voice keeps its echo, a slow one hands it over, each judged by its own pace`() {
        var pace = NeuralPace()
        // Piper's pace here: 0.23 s for 2 s of audio (0.115), an echo heard after about 58 ms.
        pace.record(model: "/joe.onnx", nanoseconds: 230_000_000, samples: 44_100, sampleRate: 22_050)
        #expect(pace.echoMilliseconds(model: "/joe.onnx").map { Int($0.rounded()) } == 58)
        #expect(pace.handsOver(model: "/joe.onnx", budget: 80) == (false, nil))
        #expect(pace.handsOver(model: "/joe.onnx", budget: 50).handsOver)
        // Kokoro's int8 pace on two cores: 0.62, about 310 ms.
        pace.record(model: "/kokoro.onnx", nanoseconds: 1_240_000_000, samples: 48_000, sampleRate: 24_000)
        let slow = pace.handsOver(model: "/kokoro.onnx", budget: 80)
        #expect(slow.handsOver)
        #expect(slow.why == "it would be heard after about 310 ms (NeuralEchoMilliseconds 80)")
    }

    @Test func `the pace follows the latest runs, and a run too short to judge is not counted`() {
        var pace = NeuralPace()
        pace.record(model: "/m.onnx", nanoseconds: 1_000_000_000, samples: 22_050, sampleRate: 22_050)
        pace.record(model: "/m.onnx", nanoseconds: 200_000_000, samples: 22_050, sampleRate: 22_050)
        #expect(pace.echoMilliseconds(model: "/m.onnx").map { Int($0.rounded()) } == 300)
        // 10 ms of audio: the run's fixed costs would pass for its pace.
        pace.record(model: "/m.onnx", nanoseconds: 900_000_000, samples: 220, sampleRate: 22_050)
        #expect(pace.echoMilliseconds(model: "/m.onnx").map { Int($0.rounded()) } == 300)
        pace.record(model: "/m.onnx", nanoseconds: 1, samples: 22_050, sampleRate: 0)
        #expect(pace.echoMilliseconds(model: "/m.onnx").map { Int($0.rounded()) } == 300)
    }
}
