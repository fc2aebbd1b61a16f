public import Logging
import OnnxRuntime
import RegularFiles
public import System
public import Voices

/// The neural models of one synth thread, loaded on a thread of their own so that no reply and
/// no other voice's speech waits for a model (a "medium" Piper model takes 0.3–1 s to load).
///
/// A voice's model is asked for when the voice is chosen (``prepare(_:)``); the synth thread
/// takes it when a message needs it, waiting at most ``Settings/readyWait``. At most
/// ``Settings/loadedLimit`` models stay loaded (about 200 MB each); one unused for
/// ``Settings/idleSeconds`` is released.
public final class NeuralModelStore: Sendable {
    /// How many models stay loaded, for how long, and how long a message waits for one.
    public struct Settings: Sendable, Equatable {
        /// Models kept loaded at once (`NeuralVoicesLoaded`).
        public var loadedLimit: Int
        /// Seconds an unused model stays loaded (`NeuralIdleSeconds`); 0: until another replaces it.
        public var idleSeconds: Int
        /// Nanoseconds a message waits for its model before its espeak-ng voice speaks it instead.
        public var readyWait: UInt64

        public init(loadedLimit: Int = 1, idleSeconds: Int = 600, readyWait: UInt64 = 1_000_000_000) {
            self.loadedLimit = max(1, loadedLimit)
            self.idleSeconds = max(0, idleSeconds)
            self.readyWait = readyWait
        }
    }

    struct Loaded {
        var voice: NeuralVoice
        var model: any NeuralModel
        var control: OnnxRunControl
        var lastUsed: UInt64
        var inUse: Bool
    }

    struct Failure {
        var voice: NeuralVoice
        var stamp: [ChangeStamp?]
        var error: NeuralVoiceError
    }

    struct State {
        var loaded: [Loaded] = []
        /// Asked for and not loading yet, oldest first.
        var queue: [NeuralVoice] = []
        var loading: NeuralVoice?
        /// Models that failed, with why: not tried again until their files change.
        var failures: [Failure] = []
        var isStarted = false
        var isShuttingDown = false
    }

    public let settings: Settings
    private let logger: Logger
    private let state = Locked(State())
    /// Wakes the loader thread: a request, a model put down, the shutdown.
    private let requests: EventFD
    /// Signalled by the loader thread whenever a load ends.
    private let loadEnded: EventFD
    private let thread = Locked<NamedThread?>(nil)

    public init(settings: Settings = Settings(), logger: Logger) throws(Errno) {
        self.settings = settings
        self.logger = logger
        requests = try EventFD()
        loadEnded = try EventFD()
    }

    /// Starts loading `voice`'s model in the background unless it is loaded, loading or known
    /// to fail. Never waits.
    public func prepare(_ voice: NeuralVoice) {
        let stamp = Self.stamp(of: voice)
        let startsThread = state.withLock { state -> Bool in
            guard !state.isShuttingDown else { return false }
            if let index = state.loaded.firstIndex(where: { $0.voice == voice }) {
                state.loaded[index].lastUsed = MonotonicClock.now
                return false
            }
            if state.loading == voice || state.queue.contains(voice) { return false }
            if let failure = state.failures.first(where: { $0.voice.model == voice.model }), failure.stamp == stamp {
                return false
            }
            state.queue.append(voice)
            // A listener moving through a voice menu asks for many: only the latest are loaded.
            if state.queue.count > settings.loadedLimit {
                state.queue.removeFirst(state.queue.count - settings.loadedLimit)
            }
            defer { state.isStarted = true }
            return !state.isStarted
        }
        if startsThread {
            do {
                let started = try NamedThread(name: "utter-models") { [self] in run() }
                thread.withLock { $0 = started }
            } catch {
                logger.error("cannot start the neural model thread (\(error)); neural voices are spoken by espeak-ng")
                state.withLock { $0.queue.removeAll() }
            }
        }
        requests.signal()
    }

    /// `voice`'s model for the synth thread, marked in use until ``putDown(_:)``: loaded (or
    /// asked for) if need be and waited for until `readyWait` passes or `isCancelled()`.
    func take(_ voice: NeuralVoice, isCancelled: () -> Bool) -> Result<(any NeuralModel, OnnxRunControl), NeuralVoiceError> {
        let asked = MonotonicClock.now
        let deadline = settings.readyWait > UInt64.max - asked ? UInt64.max : asked + settings.readyWait
        var requested = false
        while true {
            loadEnded.reset()
            enum Found {
                case ready(any NeuralModel, OnnxRunControl)
                case failed(NeuralVoiceError)
                case waiting
                case absent
            }
            let stamp = Self.stamp(of: voice)
            let found = state.withLock { state -> Found in
                if let index = state.loaded.firstIndex(where: { $0.voice == voice }) {
                    state.loaded[index].inUse = true
                    state.loaded[index].lastUsed = MonotonicClock.now
                    return .ready(state.loaded[index].model, state.loaded[index].control)
                }
                if let failure = state.failures.first(where: { $0.voice.model == voice.model }), failure.stamp == stamp
                {
                    return .failed(failure.error)
                }
                return state.loading == voice || state.queue.contains(voice) ? .waiting : .absent
            }
            switch found {
            case .ready(let model, let control): return .success((model, control))
            case .failed(let error): return .failure(error)
            case .absent where !requested:
                requested = true
                prepare(voice)
                continue
            case .absent, .waiting: break
            }
            let now = MonotonicClock.now
            let waited = (now - asked) / 1_000_000
            if isCancelled() {
                return .failure(NeuralVoiceError("\(voice.model): the message was stopped while its model loaded"))
            }
            guard now < deadline else {
                return .failure(
                    NeuralVoiceError(
                        "\(voice.model) is still loading after \(waited) ms (it is used from the next message on)"))
            }
            // Short steps: a STOP meanwhile must not wait for the load.
            _ = poll([loadEnded.rawValue], timeout: min(deadline - now, 20_000_000))
        }
    }

    /// Marks `voice`'s model unused from now (its idle time starts).
    func putDown(_ voice: NeuralVoice) {
        state.withLock { state in
            guard let index = state.loaded.firstIndex(where: { $0.voice == voice }) else { return }
            state.loaded[index].inUse = false
            state.loaded[index].lastUsed = MonotonicClock.now
        }
        requests.signal()
    }

    /// The voices whose models are loaded now, the most recently used last.
    public var loadedVoices: [NeuralVoice] {
        state.withLock { $0.loaded.sorted { $0.lastUsed < $1.lastUsed }.map(\.voice) }
    }

    /// Tells the loader thread to stop once the load under way (which nothing interrupts) ends.
    func beginShutdown() {
        state.withLock { $0.isShuttingDown = true }
        requests.signal()
    }

    /// Stops the loader thread, waiting for a load under way until `deadline`; false if it still
    /// runs then. The thread is then let go: it holds the store and its runtimes itself, and a
    /// process that exits meanwhile must not count it as a thread it forgot.
    func shutdown(until deadline: UInt64) -> Bool {
        beginShutdown()
        guard let running = thread.withLock({ $0 }) else { return true }
        guard running.join(until: deadline) else {
            running.detach()
            return false
        }
        return true
    }

    private static func stamp(of voice: NeuralVoice) -> [ChangeStamp?] {
        [FileSystem.changeStamp(of: voice.model), FileSystem.changeStamp(of: voice.config)]
    }

    private static func name(_ voice: NeuralVoice) -> String {
        if case .kokoro(let styles) = voice.family {
            let name = styles.split(separator: "/").last.map { String($0.prefix { $0 != "." }) } ?? ""
            return "\(voice.model) (voice \(name))"
        }
        return voice.speaker.map { "\(voice.model) (speaker \($0))" } ?? voice.model
    }

    // MARK: The loader thread

    private func run() {
        var runtimes: [String: OnnxRuntime] = [:]
        var released: [Loaded] = []
        while true {
            enum Next {
                case stop
                case load(NeuralVoice)
                case sleep(until: UInt64?)
            }
            var why = "unused for \(settings.idleSeconds) s (NeuralIdleSeconds)"
            let next = state.withLock { state -> Next in
                guard !state.isShuttingDown else { return .stop }
                // Read under the lock: every `lastUsed` is stamped under it, so none is later than
                // `now` (a clock read before taking the lock could precede a release's stamp).
                let now = MonotonicClock.now
                if settings.idleSeconds > 0 {
                    let idle = UInt64(settings.idleSeconds) * 1_000_000_000
                    released = state.loaded.filter { !$0.inUse && now - $0.lastUsed >= idle }
                    state.loaded.removeAll { !$0.inUse && now - $0.lastUsed >= idle }
                }
                if !state.queue.isEmpty {
                    let voice = state.queue.removeFirst()
                    state.loading = voice
                    // The old model goes before the new one comes: two would not fit where one is asked.
                    state.loaded.sort { $0.lastUsed < $1.lastUsed }
                    if state.loaded.count >= settings.loadedLimit && released.isEmpty {
                        why = "NeuralVoicesLoaded \(settings.loadedLimit) reached"
                    }
                    while state.loaded.count >= settings.loadedLimit {
                        released.append(state.loaded.removeFirst())
                    }
                    return .load(voice)
                }
                guard settings.idleSeconds > 0 else { return .sleep(until: nil) }
                let idle = UInt64(settings.idleSeconds) * 1_000_000_000
                return .sleep(until: state.loaded.filter { !$0.inUse }.map { $0.lastUsed + idle }.min())
            }
            if !released.isEmpty {
                // Freed here, outside the lock and before any new model is loaded; logged once gone.
                let gone = released.map { (voice: $0.voice, inUse: $0.inUse) }
                released.removeAll()
                Heap.returnFreeMemory()
                for model in gone { logRelease(model.voice, inUse: model.inUse, why: why) }
            }
            switch next {
            case .stop:
                return
            case .load(let voice):
                load(voice, runtimes: &runtimes)
            case .sleep(let until):
                let now = MonotonicClock.now
                _ = poll([requests.rawValue], timeout: until.map { $0 > now ? $0 - now : 0 })
                requests.reset()
            }
        }
    }

    private func logRelease(_ voice: NeuralVoice, inUse: Bool, why: String) {
        logger.info(
            "neural voice model \(Self.name(voice)) released: \(why)\(inUse ? " (freed when its message ends)" : "")")
    }

    private func load(_ voice: NeuralVoice, runtimes: inout [String: OnnxRuntime]) {
        let started = MonotonicClock.now
        logger.info("loading neural voice model \(Self.name(voice))")
        let stamp = Self.stamp(of: voice)
        let result: Result<(any NeuralModel, OnnxRunControl), NeuralVoiceError>
        do throws(NeuralVoiceError) {
            let runtime: OnnxRuntime
            if let known = runtimes[voice.runtimeLibrary] {
                runtime = known
            } else {
                switch OnnxRuntime.load(path: voice.runtimeLibrary) {
                case .success(let opened): runtime = opened
                case .failure(let error): throw NeuralVoiceError("\(error)")
                }
                runtimes[voice.runtimeLibrary] = runtime
            }
            let model: any NeuralModel =
                switch voice.family {
                case .piper: try PiperModel(voice: voice, runtime: runtime)
                case .kokoro:
                    // A pack's voices share its model: one loaded for another voice is not loaded again.
                    if let sibling = state.withLock({ state in
                        state.loaded.lazy.compactMap { $0.model as? KokoroModel }.first { $0.voice.model == voice.model }
                    }) {
                        try KokoroModel(voice: voice, sharingModelOf: sibling)
                    } else {
                        try KokoroModel(voice: voice, runtime: runtime)
                    }
                }
            let control: OnnxRunControl
            do {
                control = try OnnxRunControl(runtime: runtime)
            } catch {
                throw NeuralVoiceError("\(error)")
            }
            result = .success((model, control))
        } catch {
            result = .failure(error)
        }
        let now = MonotonicClock.now
        let milliseconds = (now - started) / 1_000_000
        state.withLock { state in
            state.loading = nil
            state.failures.removeAll { $0.voice.model == voice.model }
            switch result {
            case .success(let (model, control)):
                state.loaded.append(Loaded(voice: voice, model: model, control: control, lastUsed: now, inUse: false))
            case .failure(let error):
                state.failures.append(Failure(voice: voice, stamp: stamp, error: error))
            }
        }
        switch result {
        case .success: logger.info("neural voice model \(Self.name(voice)) loaded in \(milliseconds) ms")
        case .failure(let error): logger.error("neural voice model \(Self.name(voice)) cannot be used: \(error)")
        }
        loadEnded.signal()
    }
}
