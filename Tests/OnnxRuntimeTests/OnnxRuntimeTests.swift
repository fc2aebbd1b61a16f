import Glibc
import OnnxRuntime
import Piper
import System
import TestSupport
import Testing

@Suite struct OnnxRuntimeTests {
    @Test func `the runtime is found, new enough, and its API table is the one declared`() throws {
        let runtime = try installedOnnxRuntime()
        let parts = runtime.version.split(separator: ".").compactMap { Int($0) }
        #expect(parts.count >= 2 && (parts[0] > 1 || parts[1] >= 14), "\(runtime.version)")
        // CreateStatus, GetErrorCode, GetErrorMessage and ReleaseStatus at their documented places.
        let status = try #require(runtime.roundTripStatus(code: 2, message: "a test status"))
        #expect(status.code == 2 && status.message == "a test status")
    }

    @Test func `loading the runtime makes no environment: the first session makes it, the next shares it`() throws {
        let runtime = try installedOnnxRuntime()
        #expect(!runtime.hasEnvironment, "listing the neural voices would pay ONNX Runtime's environment")
        let voice = try TinyVoice()
        let bytes = try #require(readFile(voice.model))
        let first = try runtime.session(model: bytes, threads: 1)
        #expect(runtime.hasEnvironment)
        let second = try runtime.session(model: bytes, threads: 1)
        #expect(first.outputNames == second.outputNames)
    }

    @Test func `a missing or foreign library is refused with its reason`() {
        guard
            case .failure(let error) = OnnxRuntime.load(candidates: ["/nonexistent/libonnxruntime.so.1", "libc.so.6"])
        else {
            Issue.record("loaded")
            return
        }
        #expect(error.message.contains("/nonexistent/libonnxruntime.so.1: no such file"))
        #expect(error.message.contains("libc.so.6: not ONNX Runtime (no OrtGetApiBase)"))
    }

    @Test func `the durations edit adds the Ceil output, and a run returns samples and frames`() throws {
        let runtime = try installedOnnxRuntime()
        let voice = try TinyVoice()
        let bytes = try #require(readFile(voice.model))
        let edit = try ModelEdit.exposingDurations(bytes).get()
        #expect(edit.durationsOutput == "frames")
        #expect(edit.inputs == ["input", "input_lengths", "scales"])
        #expect(edit.outputs == ["output", "lengths_seen", "frames"])
        // Editing the edited model changes nothing.
        #expect(try ModelEdit.exposingDurations(edit.model).get().model == edit.model)
        let session = try runtime.session(model: edit.model, threads: 1)
        #expect(session.outputNames == ["output", "lengths_seen", "frames"])
        let ids: [Int64] = [1, 0, 4, 0, 9, 0, 2]
        let results = try session.run(
            [
                OnnxTensor(name: "input", shape: [1, 7], values: .int64(ids)),
                OnnxTensor(name: "input_lengths", shape: [1], values: .int64([7])),
                OnnxTensor(name: "scales", shape: [3], values: .float([0.667, 1, 0.8])),
            ], outputs: ["output", "frames"], control: nil)
        #expect(results[1] == ids.map { Float(TinyVoice.frames($0)) })
        #expect(results[0].count == ids.map { TinyVoice.frames($0) }.reduce(0, +) * 256)
    }

    @Test func `a model without a Ceil node loads as it is, without durations`() throws {
        let voice = try TinyVoice(["--no-ceil"])
        let bytes = try #require(readFile(voice.model))
        let edit = try ModelEdit.exposingDurations(bytes).get()
        #expect(edit.durationsOutput == nil && edit.model == bytes)
    }

    @Test func `corrupt and truncated models are named as such`() throws {
        let runtime = try installedOnnxRuntime()
        let voice = try TinyVoice()
        let bytes = try #require(readFile(voice.model))
        let truncated = Array(bytes.prefix(bytes.count / 2))
        guard case .failure(let problem) = ModelEdit.exposingDurations(truncated) else {
            Issue.record("truncated model accepted")
            return
        }
        #expect(problem.description.hasPrefix("not an ONNX model ("))
        var generator = SeededGenerator(seed: 22)
        let noise = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        if case .success = ModelEdit.exposingDurations(noise) {
            // Random bytes can parse as protobuf; ONNX Runtime then refuses them.
            #expect(throws: OnnxRuntimeError.self) { try runtime.session(model: noise, threads: 1) }
        }
    }

    @Test func `terminating a run from another thread ends it with an error`() throws {
        let runtime = try installedOnnxRuntime()
        let voice = try TinyVoice(["--slow"])
        let session = try runtime.session(model: try #require(readFile(voice.model)), threads: 1)
        let control = try OnnxRunControl(runtime: runtime)
        let stopper = try NamedThread(name: "stopper") {
            var wait = timespec(tv_sec: 0, tv_nsec: 200_000_000)
            nanosleep(&wait, nil)
            control.terminate()
        }
        let ids: [Int64] = [1, 0, 4, 0, 2]
        let inputs = [
            OnnxTensor(name: "input", shape: [1, 5], values: .int64(ids)),
            OnnxTensor(name: "input_lengths", shape: [1], values: .int64([5])),
            OnnxTensor(name: "scales", shape: [3], values: .float([0.667, 1, 0.8])),
        ]
        #expect(throws: OnnxRuntimeError.self) { try session.run(inputs, outputs: ["output"], control: control) }
        #expect(stopper.join(until: .max))
        // Reset, the same options run the model to its end.
        control.reset()
        let results = try session.run(inputs, outputs: ["output"], control: control)
        #expect(results[0].count == 8 * 256)
    }
}
