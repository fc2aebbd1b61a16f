import AudioStream
import Synchronization

// The render side of the PipeWire stream: the one consumer of the sample ring. While a stream
// exists PipeWire's real-time data thread runs `process` for it; while none does (no server, a
// server that died) the thread loop's discard timer runs `discard`. The two never overlap: the
// timer is armed only after the stream is destroyed (which takes it off the data thread first)
// and disarmed before the next one is made. `process` and what it calls are checked by the
// compiler (`@_noLocks`): no locks, no allocation, no logging.

/// Whether the render side runs by itself; ``PipeWireRenderSide/activity`` holds it.
enum Activity: UInt8 {
    /// The stream plays (or the discard timer ticks): new requests are seen without help.
    case active = 0
    /// The render side found nothing to play and asked the loop thread to let it sleep.
    case deactivating = 1
    /// Asleep: the stream is inactive or the timer disarmed; a wake takes the loop's lock.
    case inactive = 2
    /// Shut down: nothing is woken any more.
    case closed = 3

    var code: UInt8 {
        @_noLocks get { rawValue }
    }
}

/// What only the render side keeps between cycles, beside the stream core's own state.
struct PipeWireRenderState: ~Copyable {
    var stream: StreamRenderState
    /// Frames handed to the stream since it was made (ring frames, fades and silence).
    var streamFrames: UInt64 = 0
    /// The stream frame just past the last ring frame handed over.
    var ringEndInStream: UInt64 = 0
    /// Silent frames handed over in a row: the stream sleeps after `idleFrames` of them.
    var silentFrames = 0
    let idleFrames: Int
    /// Frames handed over since the loop thread deactivated the stream: a few cycles run before
    /// the server acts on it; if they go on, it is asked again (see `process`).
    var framesWhileAsleep = 0
    /// Discarding: the monotonic time up to which frames were discarded, and a buffer to take them into.
    var discardedUntil: UInt64 = 0
    let scratch: UnsafeMutablePointer<Int16>
    let scratchFrames: Int

    init(sampleRate: Int, quantum: Int) {
        stream = StreamRenderState(sampleRate: sampleRate, historyFrames: quantum)
        // 50 ms of silence before sleeping: the gaps between a job's chunks do not wake the loop.
        idleFrames = max(sampleRate / 20, quantum)
        scratchFrames = quantum
        scratch = .allocate(capacity: quantum)
        scratch.initialize(repeating: 0, count: quantum)
    }

    deinit {
        scratch.deallocate()
    }
}

/// The ring's consumer and the flags that let the stream sleep while there is nothing to play.
///
/// Sleeping without losing a wake: a producer writes (the ring, a request), then bumps `wakes`
/// and reads `activity`, both sequentially consistent; the render side, going to sleep, stores
/// `activity` and then reads `wakes`. Either the producer sees that the render side sleeps (and
/// takes the loop's lock to wake it) or the render side sees the new wake (and stays up).
final class PipeWireRenderSide: @unchecked Sendable {
    // @unchecked Sendable: `state` is used by one thread at a time (see the file's comment); the
    // rest is atomics and constants.
    let ring: SampleRing
    let shared: RenderShared
    /// The same two, for the data thread's entry (see `pipeWireProcess`).
    let ringReference: Unmanaged<SampleRing>
    let sharedReference: Unmanaged<RenderShared>
    let state: UnsafeMutablePointer<PipeWireRenderState>
    let sampleRate: Int
    /// An ``Activity`` code.
    let activity = Atomic<UInt8>(Activity.inactive.rawValue)
    /// Counts wakes (``PipeWireConnection/wakeRenderSide()``).
    let wakes = Atomic<UInt64>(0)
    /// `wakes` as the render side last found nothing to do.
    let idleSeen = Atomic<UInt64>(0)

    init(ring: SampleRing, shared: RenderShared, sampleRate: Int, quantum: Int) {
        self.ring = ring
        self.shared = shared
        ringReference = Unmanaged.passUnretained(ring)
        sharedReference = Unmanaged.passUnretained(shared)
        self.sampleRate = sampleRate
        state = .allocate(capacity: 1)
        state.initialize(to: PipeWireRenderState(sampleRate: sampleRate, quantum: quantum))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The data thread's answer to one graph cycle: fills `samples` (at most `frames`) from the
    /// ring and publishes the position heard; `pending` frames play before these. Returns how many
    /// it filled (the rest is silence) and whether the loop thread should put the stream to sleep.
    @_noLocks
    func process(
        into samples: UnsafeMutablePointer<Int16>, frames: Int, pending: UInt64, cycleTime: UInt64, ring: SampleRing,
        shared: RenderShared
    ) -> (filled: Int, sleep: Bool) {
        let seen = wakes.load(ordering: .sequentiallyConsistent)
        let before = state.pointee.stream.handedOver
        // The stream's queue is one quantum that plays on: the fade continues after it.
        let requests = takeStreamRequests(
            &state.pointee.stream, fadeFrom: before, ring: ring, shared: shared)
        let filled = fillFromStream(
            &state.pointee.stream, into: samples, frames: frames, available: requests.available, ring: ring)
        let ringFrames = state.pointee.stream.handedOver - before
        let start = state.pointee.streamFrames
        state.pointee.streamFrames = start + UInt64(frames)
        if ringFrames > 0 { state.pointee.ringEndInStream = start + UInt64(filled) }

        // The first frame of this buffer is heard after `pending`: what is before it was heard.
        // (At most a second: a wrong report from the server must not keep the stream awake.)
        let latency = pending < UInt64(sampleRate) ? pending : UInt64(sampleRate)
        let heard = start > latency ? start - latency : 0
        let ringEnd = state.pointee.ringEndInStream
        var queued = ringEnd > heard ? ringEnd - heard : 0
        if queued > state.pointee.stream.handedOver { queued = state.pointee.stream.handedOver }
        publishStreamPosition(
            &state.pointee.stream, queued: queued, running: true, at: cycleTime, ring: ring, shared: shared)

        // (Not one `&&` chain: its right sides are closures, which would retain `self`.)
        var idle = requests.available == ringFrames && queued == 0
        if isFading(&state.pointee.stream) { idle = false }
        guard idle else {
            state.pointee.silentFrames = 0
            state.pointee.framesWhileAsleep = 0
            return (filled, false)
        }
        state.pointee.silentFrames += frames
        guard state.pointee.silentFrames >= state.pointee.idleFrames else { return (filled, false) }
        return (filled, askToSleep(seen: seen, frames: frames))
    }

    /// Asks the loop thread to deactivate the stream (once; again if the stream still runs four
    /// idle periods after it was deactivated); whether the loop thread must be woken.
    @_noLocks
    private func askToSleep(seen: UInt64, frames: Int) -> Bool {
        var expected = Activity.active.code
        if activity.load(ordering: .sequentiallyConsistent) == Activity.inactive.code {
            state.pointee.framesWhileAsleep += frames
            guard state.pointee.framesWhileAsleep >= 4 * state.pointee.idleFrames else { return false }
            expected = Activity.inactive.code
        }
        state.pointee.framesWhileAsleep = 0
        idleSeen.store(seen, ordering: .sequentiallyConsistent)
        let (asked, _) = activity.compareExchange(
            expected: expected, desired: Activity.deactivating.code, ordering: .sequentiallyConsistent)
        return asked
    }

    /// Loop thread, after `process` asked to sleep: whether the stream may be deactivated now (no
    /// wake came since); if not, the render side stays active.
    func settleAsleep() -> Bool {
        let (exchanged, _) = activity.compareExchange(
            expected: Activity.deactivating.code, desired: Activity.inactive.code, ordering: .sequentiallyConsistent)
        guard exchanged else { return false }
        if wakes.load(ordering: .sequentiallyConsistent) != idleSeen.load(ordering: .sequentiallyConsistent) {
            wakeUp()
            return false
        }
        return true
    }

    /// Any thread: counts a wake; whether the render side sleeps (the caller must then wake it).
    func noteWake() -> Bool {
        wakes.add(1, ordering: .sequentiallyConsistent)
        let now = activity.load(ordering: .sequentiallyConsistent)
        return now == Activity.deactivating.code || now == Activity.inactive.code
    }

    /// Loop thread (discard timer): with no stream, every frame in the ring is taken at once and
    /// counts as heard, so positions and events advance (a message whose server died ends at
    /// once, as on the other backends, instead of lasting its whole length in silence). Returns
    /// false when nothing is left to discard and no wake came: the timer may then be disarmed.
    func discard(now: UInt64) -> Bool {
        let seen = wakes.load(ordering: .sequentiallyConsistent)
        var due = ring.capacity
        state.pointee.discardedUntil = now
        var idle = false
        repeat {
            let requests = takeStreamRequests(
                &state.pointee.stream, fadeFrom: state.pointee.stream.handedOver, ring: ring, shared: shared)
            let wanted = min(due, state.pointee.scratchFrames)
            let before = state.pointee.stream.handedOver
            let taken = fillFromStream(
                &state.pointee.stream, into: state.pointee.scratch, frames: wanted, available: requests.available,
                ring: ring)
            due -= taken
            idle = requests.available == state.pointee.stream.handedOver - before && !state.pointee.stream.isFading
            if taken == 0 { break }
        } while due > 0 && !idle
        publishStreamPosition(&state.pointee.stream, queued: 0, running: true, ring: ring, shared: shared)
        guard idle else { return true }
        let (asleep, _) = activity.compareExchange(
            expected: Activity.active.code, desired: Activity.inactive.code, ordering: .sequentiallyConsistent)
        guard asleep, wakes.load(ordering: .sequentiallyConsistent) != seen else { return false }
        wakeUp()
        return true
    }

    /// Marks the render side active again, unless it was shut down; whether it now is.
    @discardableResult
    func wakeUp() -> Bool {
        while true {
            let now = activity.load(ordering: .sequentiallyConsistent)
            if now == Activity.closed.code { return false }
            if now == Activity.active.code { return true }
            let (exchanged, _) = activity.compareExchange(
                expected: now, desired: Activity.active.code, ordering: .sequentiallyConsistent)
            if exchanged { return true }
        }
    }

    /// With the loop's lock held and no stream: a new stream takes over, its frames counted from 0.
    func beginStream() {
        state.pointee.streamFrames = 0
        state.pointee.ringEndInStream = 0
        state.pointee.silentFrames = 0
        state.pointee.framesWhileAsleep = 0
    }
}

extension PipeWireRenderSide {
    /// With the loop's lock held and no stream: discarding starts from `now`.
    func beginDiscard(now: UInt64) {
        state.pointee.discardedUntil = now
    }

    /// Nothing wakes the render side any more (``PipeWireConnection/shutdown(until:)``).
    func close() {
        activity.store(Activity.closed.code, ordering: .sequentiallyConsistent)
    }

    var isClosed: Bool {
        activity.load(ordering: .sequentiallyConsistent) == Activity.closed.code
    }
}

/// Whether a fade-out is still being handed over.
@_noLocks
private func isFading(_ state: inout StreamRenderState) -> Bool {
    state.isFading
}
