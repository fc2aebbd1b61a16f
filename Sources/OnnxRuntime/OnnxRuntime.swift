import COnnxRuntime
import Synchronization
internal import System

/// Something ONNX Runtime refused or could not do, said for the user.
public struct OnnxRuntimeError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// ONNX Runtime, loaded at run time from a library found on this machine: the build needs none.
///
/// The only user of `COnnxRuntime`. One environment per instance, made with its first session;
/// sessions made from it may be used from any one thread at a time, and a run may be ended from
/// another thread.
public final class OnnxRuntime: @unchecked Sendable {
    // @unchecked: `api` is immutable after init and `environment` is guarded by its lock; ONNX
    // Runtime's calls used here are thread-safe on them (its documentation says an environment and
    // a session may be shared).
    /// The API version Utter asks for: ONNX Runtime 1.14 (February 2023) or newer.
    public static let apiVersion: UInt32 = 14
    public static let minimumVersion = "1.14"

    let api: UnsafeRawPointer
    /// Made when the first session is: making it costs ONNX Runtime 1.32 about 60 ms (it probes the
    /// processors and PCI devices and opens its telemetry database), which a runtime loaded only to
    /// list the neural voices, as `utter say` and the module's INIT do, must not pay.
    private let environment = Mutex<OpaquePointer?>(nil)
    /// The library's own version, such as `1.32.0`.
    public let version: String
    /// Where the library was loaded from.
    public let libraryPath: String

    /// Where ONNX Runtime is looked for, in order: the configured library, `$UTTER_ONNXRUNTIME`,
    /// the dynamic linker's `libonnxruntime.so.1`, then the `onnxruntime` package of the user's
    /// python3 (`~/.local`, pyenv) and of the system's (`/usr/local`, `/usr`).
    public static func candidates(configured: String?, environment: (String) -> String?) -> [String] {
        var found: [String] = []
        if let configured, !configured.isEmpty { found.append(configured) }
        if let variable = environment("UTTER_ONNXRUNTIME"), !variable.isEmpty { found.append(variable) }
        found.append("libonnxruntime.so.1")
        let packages = PythonPackages.folders(environment: environment)
        for folder in packages {
            let capi = "\(folder)/onnxruntime/capi"
            let libraries = ((try? FileSystem.entries(of: capi)) ?? []).filter { $0.hasPrefix("libonnxruntime.so.") }
            // The newest first: a version sorts after its prefix.
            found += libraries.sorted(by: >).map { "\(capi)/\($0)" }
        }
        return found
    }

    /// The first of `candidates` that loads, or why none does (each candidate's reason).
    public static func load(candidates: [String]) -> Result<OnnxRuntime, OnnxRuntimeError> {
        var reasons: [String] = []
        for candidate in candidates {
            if candidate.contains("/") && !FileSystem.exists(candidate) {
                reasons.append("\(candidate): no such file")
                continue
            }
            switch load(path: candidate) {
            case .success(let runtime): return .success(runtime)
            case .failure(let error): reasons.append(error.message)
            }
        }
        return .failure(OnnxRuntimeError("ONNX Runtime not found (\(reasons.joined(separator: "; ")))"))
    }

    /// ONNX Runtime from the library at `path` (or found by that name).
    public static func load(path: String) -> Result<OnnxRuntime, OnnxRuntimeError> {
        let library: DynamicLibrary
        switch DynamicLibrary.open(path) {
        case .success(let opened): library = opened
        case .failure(let error): return .failure(OnnxRuntimeError("\(path): \(error)"))
        }
        guard let symbol = library.symbol("OrtGetApiBase"), let base = COnnxRuntime_apiBase(symbol) else {
            return .failure(OnnxRuntimeError("\(path): not ONNX Runtime (no OrtGetApiBase)"))
        }
        let version = base.pointee.getVersionString().map { String(cString: $0) } ?? "unknown"
        guard let api = base.pointee.getApi(apiVersion) else {
            return .failure(
                OnnxRuntimeError(
                    "\(path): ONNX Runtime \(version) is older than \(minimumVersion), which Utter needs (API version \(apiVersion))"
                ))
        }
        let file = DynamicLibrary.file(containing: symbol) ?? path
        return .success(OnnxRuntime(api: api, version: version, libraryPath: file))
    }

    private init(api: UnsafeRawPointer, version: String, libraryPath: String) {
        self.api = api
        self.version = version
        self.libraryPath = libraryPath
    }

    deinit {
        if let env = environment.withLock({ $0 }) { COnnxRuntime_releaseEnv(api, env) }
    }

    /// Whether a session has made this runtime's environment yet.
    package var hasEnvironment: Bool { environment.withLock { $0 != nil } }

    /// The environment sessions are made in, made by the first caller.
    private func madeEnvironment() throws(OnnxRuntimeError) -> OpaquePointer {
        let made: Result<OpaquePointer, OnnxRuntimeError> = environment.withLock { env in
            if let env { return .success(env) }
            var created: OpaquePointer?
            // Errors only (3): its warnings would fill the module's standard error.
            let status = COnnxRuntime_createEnv(api, 3, "utter", &created)
            if let problem = Self.message(api, status) { return .failure(OnnxRuntimeError("\(libraryPath): \(problem)")) }
            guard let created else { return .failure(OnnxRuntimeError("\(libraryPath): no environment created")) }
            env = created
            return .success(created)
        }
        return try made.get()
    }

    /// The message of a failed call's status (releasing it), or nil for success.
    static func message(_ api: UnsafeRawPointer, _ status: OpaquePointer?) -> String? {
        guard let status else { return nil }
        defer { COnnxRuntime_releaseStatus(api, status) }
        return COnnxRuntime_errorMessage(api, status).map { String(cString: $0) } ?? "unknown error"
    }

    func check(_ status: OpaquePointer?, _ what: String) throws(OnnxRuntimeError) {
        if let problem = Self.message(api, status) { throw OnnxRuntimeError("\(what): \(problem)") }
    }

    /// A status made and read back through the API table: proves the table is the one declared.
    public func roundTripStatus(code: Int32, message: String) -> (code: Int32, message: String)? {
        guard let status = COnnxRuntime_createStatus(api, code, message) else { return nil }
        defer { COnnxRuntime_releaseStatus(api, status) }
        let text = COnnxRuntime_errorMessage(api, status).map { String(cString: $0) } ?? ""
        return (COnnxRuntime_errorCode(api, status), text)
    }

    /// A session for the model in `bytes`, running on `threads` threads.
    public func session(model bytes: [UInt8], threads: Int) throws(OnnxRuntimeError) -> OnnxSession {
        let env = try madeEnvironment()
        return try session(threads: threads) { options, session in
            bytes.withUnsafeBytes { raw in
                COnnxRuntime_createSessionFromArray(api, env, raw.baseAddress, raw.count, options, &session)
            }
        }
    }

    /// A session for the model file at `path`, which ONNX Runtime reads itself (no copy of it is
    /// held here while it loads: a large model's peak memory is its own), on `threads` threads.
    public func session(path: String, threads: Int) throws(OnnxRuntimeError) -> OnnxSession {
        let env = try madeEnvironment()
        return try session(threads: threads) { options, session in
            COnnxRuntime_createSession(api, env, path, options, &session)
        }
    }

    private func session(
        threads: Int, create: (OpaquePointer?, inout OpaquePointer?) -> OpaquePointer?
    ) throws(OnnxRuntimeError) -> OnnxSession {
        var options: OpaquePointer?
        try check(COnnxRuntime_createSessionOptions(api, &options), "session options")
        defer { COnnxRuntime_releaseSessionOptions(api, options) }
        try check(COnnxRuntime_setIntraOpThreads(api, options, Int32(max(1, threads))), "thread count")
        try check(COnnxRuntime_setInterOpThreads(api, options, 1), "thread count")
        var session: OpaquePointer?
        let status = create(options, &session)
        try check(status, "the model cannot be loaded")
        guard let session else { throw OnnxRuntimeError("the model cannot be loaded") }
        do {
            return try OnnxSession(runtime: self, session: session)
        } catch {
            COnnxRuntime_releaseSession(api, session)
            throw error
        }
    }
}

/// An input tensor.
public struct OnnxTensor: Sendable {
    public enum Values: Sendable {
        case int64([Int64])
        case float([Float])
    }

    public var name: String
    public var shape: [Int64]
    public var values: Values

    public init(name: String, shape: [Int64], values: Values) {
        self.name = name
        self.shape = shape
        self.values = values
    }
}

/// Ends a run from another thread: the running `OnnxSession.run` returns an error soon after.
public final class OnnxRunControl: @unchecked Sendable {
    // @unchecked: the run options are only touched through ONNX Runtime's calls, which it makes
    // thread-safe for terminating a run (its purpose); `isTerminated` is atomic.
    let runtime: OnnxRuntime
    let options: OpaquePointer
    private let isTerminated = Atomic<Bool>(false)

    public init(runtime: OnnxRuntime) throws(OnnxRuntimeError) {
        self.runtime = runtime
        var options: OpaquePointer?
        try runtime.check(COnnxRuntime_createRunOptions(runtime.api, &options), "run options")
        guard let options else { throw OnnxRuntimeError("run options: none made") }
        self.options = options
    }

    deinit { COnnxRuntime_releaseRunOptions(runtime.api, options) }

    /// Ends the run under way (and any started before `reset`).
    public func terminate() {
        isTerminated.store(true, ordering: .releasing)
        if let problem = OnnxRuntime.message(runtime.api, COnnxRuntime_setTerminate(runtime.api, options)) {
            _ = problem  // the flag above still stops the next run
        }
    }

    /// Lets runs go on again.
    public func reset() {
        isTerminated.store(false, ordering: .releasing)
        _ = OnnxRuntime.message(runtime.api, COnnxRuntime_unsetTerminate(runtime.api, options))
    }

    public var terminated: Bool { isTerminated.load(ordering: .acquiring) }
}

/// A loaded model.
public final class OnnxSession: @unchecked Sendable {
    // @unchecked: used by one thread at a time (the synth thread); only `OnnxRunControl` reaches
    // it from another, through ONNX Runtime's thread-safe terminate flag.
    let runtime: OnnxRuntime
    private let session: OpaquePointer
    private let memory: OpaquePointer
    public let inputNames: [String]
    public let outputNames: [String]

    init(runtime: OnnxRuntime, session: OpaquePointer) throws(OnnxRuntimeError) {
        self.runtime = runtime
        self.session = session
        let api = runtime.api
        var allocator: OpaquePointer?
        try runtime.check(COnnxRuntime_defaultAllocator(api, &allocator), "allocator")
        func names(
            count counting: (UnsafeRawPointer, OpaquePointer?, UnsafeMutablePointer<Int>) -> OpaquePointer?,
            name naming: (
                UnsafeRawPointer, OpaquePointer?, Int, OpaquePointer?,
                UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
            ) -> OpaquePointer?
        ) throws(OnnxRuntimeError) -> [String] {
            var count = 0
            try runtime.check(counting(api, session, &count), "the model's inputs and outputs")
            var result: [String] = []
            for index in 0..<count {
                var name: UnsafeMutablePointer<CChar>?
                try runtime.check(naming(api, session, index, allocator, &name), "the model's inputs and outputs")
                guard let name else { continue }
                result.append(String(cString: name))
                _ = OnnxRuntime.message(api, COnnxRuntime_free(api, allocator, name))
            }
            return result
        }
        inputNames = try names(count: COnnxRuntime_inputCount, name: COnnxRuntime_inputName)
        outputNames = try names(count: COnnxRuntime_outputCount, name: COnnxRuntime_outputName)
        var memory: OpaquePointer?
        try runtime.check(COnnxRuntime_createCpuMemoryInfo(api, &memory), "memory info")
        guard let memory else { throw OnnxRuntimeError("memory info: none made") }
        self.memory = memory
    }

    deinit {
        COnnxRuntime_releaseMemoryInfo(runtime.api, memory)
        COnnxRuntime_releaseSession(runtime.api, session)
    }

    /// Runs the model on `inputs` and returns the float outputs named by `outputs`, in order.
    public func run(_ inputs: [OnnxTensor], outputs: [String], control: OnnxRunControl?) throws(OnnxRuntimeError)
        -> [[Float]]
    {
        let api = runtime.api
        var storage = inputs.map { input -> UnsafeMutableRawBufferPointer in
            switch input.values {
            case .int64(let values):
                let buffer = UnsafeMutableRawBufferPointer.allocate(
                    byteCount: max(1, values.count) * 8, alignment: 8)
                values.withUnsafeBytes { buffer.copyMemory(from: $0) }
                return UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(values.count * 8)])
            case .float(let values):
                let buffer = UnsafeMutableRawBufferPointer.allocate(
                    byteCount: max(1, values.count) * 4, alignment: 8)
                values.withUnsafeBytes { buffer.copyMemory(from: $0) }
                return UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(values.count * 4)])
            }
        }
        var values: [OpaquePointer?] = []
        defer {
            for value in values { COnnxRuntime_releaseValue(api, value) }
            for buffer in storage { buffer.deallocate() }
            storage.removeAll()
        }
        for (index, input) in inputs.enumerated() {
            var value: OpaquePointer?
            let type: Int32 =
                switch input.values {
                case .int64: Int32(UtterOrtInt64)
                case .float: Int32(UtterOrtFloat)
                }
            let status = input.shape.withUnsafeBufferPointer { shape in
                COnnxRuntime_createTensor(
                    api, memory, storage[index].baseAddress, storage[index].count, shape.baseAddress, shape.count,
                    type, &value)
            }
            try runtime.check(status, "input \(input.name)")
            values.append(value)
        }
        if let control, control.terminated { throw OnnxRuntimeError("the run was ended") }
        var produced = [OpaquePointer?](repeating: nil, count: outputs.count)
        defer { for value in produced where value != nil { COnnxRuntime_releaseValue(api, value) } }
        let status = withCStrings(inputs.map(\.name)) { inputNames in
            withCStrings(outputs) { outputNames in
                values.withUnsafeBufferPointer { inputValues in
                    produced.withUnsafeMutableBufferPointer { outputValues in
                        inputValues.withMemoryRebound(to: OpaquePointer?.self) { rebound in
                            COnnxRuntime_run(
                                api, session, control?.options, inputNames, rebound.baseAddress, inputs.count,
                                outputNames, outputs.count, outputValues.baseAddress)
                        }
                    }
                }
            }
        }
        try runtime.check(status, "inference")
        var results: [[Float]] = []
        for (index, value) in produced.enumerated() {
            guard let value else { throw OnnxRuntimeError("inference: no output \(outputs[index])") }
            var info: OpaquePointer?
            try runtime.check(COnnxRuntime_tensorInfo(api, value, &info), "output \(outputs[index])")
            defer { COnnxRuntime_releaseTensorInfo(api, info) }
            var count = 0
            var type: Int32 = 0
            try runtime.check(COnnxRuntime_elementCount(api, info, &count), "output \(outputs[index])")
            try runtime.check(COnnxRuntime_elementType(api, info, &type), "output \(outputs[index])")
            guard type == Int32(UtterOrtFloat) else {
                throw OnnxRuntimeError("output \(outputs[index]) is not of floats (element type \(type))")
            }
            var data: UnsafeMutableRawPointer?
            try runtime.check(COnnxRuntime_tensorData(api, value, &data), "output \(outputs[index])")
            guard let data else {
                results.append([])
                continue
            }
            results.append(Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: count)))
        }
        return results
    }
}

/// Calls `body` with `strings` as an array of C strings.
private func withCStrings<Result>(
    _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result
) -> Result {
    let copies = strings.map { string -> UnsafeMutablePointer<CChar> in
        let bytes = string.utf8CString
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        bytes.withUnsafeBufferPointer { copy.initialize(from: $0.baseAddress!, count: bytes.count) }
        return copy
    }
    defer { for copy in copies { copy.deallocate() } }
    let pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
