package import AudioStream
internal import CPipeWireShims
import Glibc
import Synchronization
import System

/// A ``StreamConnection`` to PipeWire through libpipewire-0.3: a `pw_thread_loop` of its own (the
/// server's messages, the stream's state, the discard timer) and a playback stream whose process
/// callback, on PipeWire's real-time data thread, pulls from the ring (``PipeWireRenderSide``).
///
/// The stream is kept between jobs, inactive while there is nothing to play, so the next word
/// starts as fast as a warm one and nothing wakes while idle. Everything about the stream is done
/// with the thread loop's lock held (or on its thread, which holds it while dispatching).
package final class PipeWireConnection: StreamConnection, @unchecked Sendable {
    // @unchecked Sendable: `pw` is set once in init; `loop` is only used with the thread loop's
    // lock held; the rest is Sendable.
    let render: PipeWireRenderSide
    private let shared: RenderShared
    private let remote: String?
    /// One quantum, the discard timer's interval.
    private let quantumNanoseconds: UInt64
    private var pw: OpaquePointer? = nil
    private var loop = LoopState()
    private let failure = Locked<String?>(nil)
    private let lifecycle = Locked<Lifecycle>(Lifecycle())
    /// Threads using `pw` outside the loop thread; `shutdown` frees it once none does.
    private let users = Atomic<Int>(0)
    /// How long `connect()` waits for the server to set the stream up.
    private let connectTimeout: UInt64 = 2_000_000_000

    /// What the loop thread (or a thread holding its lock) knows about the stream.
    private struct LoopState {
        var hasStream = false
        /// The stream was deactivated for idling.
        var streamAsleep = false
        /// The stream's `pw_stream_state`.
        var state: Int32 = 0
        /// Why the current stream failed; it is torn down (on the loop thread) and replaced by
        /// the next `connect()`.
        var failure: String? = nil
        var timerArmed = false
    }

    private struct Lifecycle {
        var started = false
        var closer: NamedThread? = nil
        var closed = false
    }

    /// A connection to `remote` (a name or socket path; nil: the session's PipeWire) playing
    /// `ring` at `sampleRate`, asking for a quantum of `periodFrames` (at least 10 ms).
    init(ring: SampleRing, shared: RenderShared, sampleRate: Int, periodFrames: Int, remote: String?)
        throws(StreamError)
    {
        // Never below a 10 ms quantum: shorter ones cost wakeups and gain nothing for speech.
        let quantum = max(periodFrames, (sampleRate + 99) / 100)
        self.shared = shared
        self.remote = remote
        quantumNanoseconds = UInt64(quantum) * 1_000_000_000 / UInt64(sampleRate)
        render = PipeWireRenderSide(ring: ring, shared: shared, sampleRate: sampleRate, quantum: quantum)

        var callbacks = utter_pw_callbacks()
        callbacks.render_data = Unmanaged.passUnretained(render).toOpaque()
        callbacks.process = pipeWireProcess
        // Retained for the loop until `shutdown` has freed it (never, if PipeWire hangs).
        callbacks.data = Unmanaged.passRetained(self).toOpaque()
        callbacks.state_changed = { data, state, error in
            connection(data).streamStateChanged(state, error: error.map { String(cString: $0) })
        }
        callbacks.event = { data in connection(data).eventSignalled() }
        callbacks.timer = { data in connection(data).timerFired() }
        guard let pw = utter_pw_new(&callbacks, UInt32(sampleRate), UInt32(quantum)) else {
            let error = Errno.current
            Unmanaged.passUnretained(self).release()
            if let reason = utter_pw_library_error() {
                throw StreamError("cannot open PipeWire's client library: \(String(cString: reason))")
            }
            throw StreamError("cannot set up PipeWire's client library (\(error))")
        }
        self.pw = pw
    }

    // MARK: StreamConnection

    package func start() -> String? {
        startLoop()
    }

    package func connect() throws(StreamError) {
        if let notice = startLoop() { throw StreamError(notice) }
        guard let pw = enter() else { throw StreamError("the PipeWire output was shut down") }
        defer { leave() }
        utter_pw_lock(pw)
        defer { utter_pw_unlock(pw) }
        if loop.hasStream && loop.failure == nil { return }
        if loop.hasStream { tearDown(pw) }

        // Taking over from the discard timer: the stream starts active if it was discarding.
        let awake = render.activity.load(ordering: .sequentiallyConsistent) == Activity.active.code
        setTimer(pw, armed: false)
        render.beginStream()
        loop.state = Int32(UTTER_PW_STATE_CONNECTING)
        loop.failure = nil
        let result = withOptionalCString(remote) { utter_pw_connect(pw, $0, awake) }
        guard result >= 0 else {
            enterDiscard(pw)
            let place = remote.map { "at \($0)" } ?? "of this session"
            // libpipewire reports a missing or refusing socket as EHOSTDOWN ("Host is down").
            let why = -result == EHOSTDOWN ? "no server answers" : "\(Errno(-result))"
            throw StreamError(
                "cannot connect to the PipeWire server \(place) (\(why)): start it "
                    + "(systemctl --user start pipewire) or choose another sound output")
        }
        loop.hasStream = true
        loop.streamAsleep = !awake

        let deadline = MonotonicClock.now + connectTimeout
        let paused = Int32(UTTER_PW_STATE_PAUSED)
        while loop.failure == nil && loop.state < paused && !render.isClosed {
            let now = MonotonicClock.now
            guard now < deadline else { break }
            // In slices, so that a shutdown meanwhile is seen.
            _ = utter_pw_wait(pw, Int64(min(deadline - now, 50_000_000)))
        }
        if let failure = loop.failure {
            tearDown(pw)
            throw StreamError("PipeWire could not play: \(failure); check that it runs and has an output")
        }
        if loop.state < paused {
            tearDown(pw)
            throw StreamError(
                "PipeWire did not set up a stream within 2 s: it may hang; restart it "
                    + "(systemctl --user restart pipewire wireplumber)")
        }
    }

    package func disconnect() -> Bool {
        guard let pw = enter() else { return false }
        defer { leave() }
        utter_pw_lock(pw)
        defer { utter_pw_unlock(pw) }
        let had = loop.hasStream
        if had { tearDown(pw) }
        return had
    }

    package func wakeRenderSide() {
        // Cheap while the render side runs: one atomic add and one load.
        guard render.noteWake() else { return }
        guard let pw = enter() else { return }
        defer { leave() }
        utter_pw_lock(pw)
        resume(pw)
        utter_pw_unlock(pw)
    }

    package func shutdown(until deadline: UInt64) -> Bool {
        let closer: NamedThread? = lifecycle.withLock { lifecycle in
            if lifecycle.closed { return nil }
            if let closer = lifecycle.closer { return closer }
            render.close()
            do {
                lifecycle.closer = try NamedThread(name: "utter-pw-close") { self.close() }
            } catch {
                // Out of threads: close here, at the risk of waiting.
                close()
                lifecycle.closed = true
            }
            return lifecycle.closer
        }
        guard let closer else { return true }
        return closer.join(until: deadline)
    }

    package var lastFailure: String? {
        failure.withLock { $0 }
    }

    // MARK: Any thread but the loop's

    private func startLoop() -> String? {
        lifecycle.withLock { lifecycle in
            guard !lifecycle.started, lifecycle.closer == nil, !lifecycle.closed, let pw else { return nil }
            lifecycle.started = true
            let result = utter_pw_start(pw)
            return result < 0 ? "cannot start PipeWire's loop thread (\(Errno(-result)))" : nil
        }
    }

    /// `pw`, counted as in use until `leave()`; nil once shut down.
    private func enter() -> OpaquePointer? {
        users.add(1, ordering: .sequentiallyConsistent)
        if render.isClosed {
            users.subtract(1, ordering: .sequentiallyConsistent)
            return nil
        }
        return pw
    }

    private func leave() {
        users.subtract(1, ordering: .sequentiallyConsistent)
    }

    /// The closing thread: waits for the other threads to leave `pw`, then frees it.
    private func close() {
        while users.load(ordering: .sequentiallyConsistent) > 0 { MonotonicClock.sleep(nanoseconds: 1_000_000) }
        guard let pw else { return }
        utter_pw_lock(pw)
        setTimer(pw, armed: false)
        loop.hasStream = false
        _ = utter_pw_disconnect(pw)
        utter_pw_unlock(pw)
        utter_pw_destroy(pw)
        Unmanaged.passUnretained(self).release()
    }

    // MARK: With the loop's lock held

    /// Gets the render side going again after it slept: the stream reactivated, or the timer armed.
    private func resume(_ pw: OpaquePointer) {
        guard render.wakeUp() else { return }
        if loop.hasStream {
            if loop.streamAsleep {
                loop.streamAsleep = false
                _ = utter_pw_set_active(pw, true)
            }
        } else if !loop.timerArmed {
            render.beginDiscard(now: MonotonicClock.now)
            setTimer(pw, armed: true)
        }
    }

    /// Destroys the stream and the core, and discards in their place until the next `connect()`.
    private func tearDown(_ pw: OpaquePointer) {
        loop.hasStream = false
        loop.streamAsleep = false
        _ = utter_pw_disconnect(pw)
        enterDiscard(pw)
    }

    /// With no stream: the timer takes over the ring (it disarms itself when nothing is left).
    private func enterDiscard(_ pw: OpaquePointer) {
        guard render.wakeUp() else { return }
        render.beginDiscard(now: MonotonicClock.now)
        setTimer(pw, armed: true)
    }

    private func setTimer(_ pw: OpaquePointer, armed: Bool) {
        utter_pw_set_timer(pw, armed ? quantumNanoseconds : 0)
        loop.timerArmed = armed
    }

    // MARK: The loop thread's callbacks

    fileprivate func streamStateChanged(_ state: Int32, error: String?) {
        loop.state = state
        // Our own teardown disconnects the stream too: only a stream we still have can fail.
        guard loop.hasStream, loop.failure == nil else { return }
        let failed =
            state == Int32(UTTER_PW_STATE_ERROR) || state == Int32(UTTER_PW_STATE_UNCONNECTED)
        guard failed else { return }
        let text = error ?? "the server disconnected the stream"
        loop.failure = text
        failure.withLock { $0 = "PipeWire: \(text)" }
        shared.deviceFailures.add(1, ordering: .releasing)
        // Not destroyed inside its own callback: the event handler tears it down.
        if let pw { utter_pw_signal(pw) }
    }

    fileprivate func eventSignalled() {
        guard let pw else { return }
        if loop.hasStream && loop.failure != nil {
            tearDown(pw)
        } else if render.settleAsleep() && loop.hasStream {
            // Nothing to play and no wake since: no cycles (no wakeups) until the next wake.
            if loop.streamAsleep {
                // Asked again: the stream went on running after it was deactivated (the server
                // missed it). Deactivating an inactive stream does nothing, so it is toggled.
                _ = utter_pw_set_active(pw, true)
            }
            loop.streamAsleep = true
            _ = utter_pw_set_active(pw, false)
        }
    }

    fileprivate func timerFired() {
        guard let pw else { return }
        if loop.hasStream || !render.discard(now: MonotonicClock.now) {
            setTimer(pw, armed: false)
        }
    }
}

/// The connection a loop callback's `data` points to (retained for the loop, see `init`).
private func connection(_ data: UnsafeMutableRawPointer?) -> PipeWireConnection {
    Unmanaged<PipeWireConnection>.fromOpaque(data!).takeUnretainedValue()
}

/// Calls `body` with `string` as a C string, or with NULL.
private func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}
