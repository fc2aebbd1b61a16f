internal import CPulse
import AudioStream
import Synchronization
import System

// The render thread of the PulseAudio backend: real-time, checked by the compiler (`@_noLocks`):
// no locks, no allocation, no logging, no String, no Array in this file. It runs the stream's main
// loop and answers the server's requests from the sample ring (StreamRender.swift). It never opens
// or closes a stream; it adopts and retires them through a ``Handoff`` (see `PulseConnection`).
// Its libpulse calls are in Pulse+RealTime.swift.

/// What the render thread keeps between steps.
struct PulseRenderState: ~Copyable {
    var stream: UnsafeMutablePointer<PulseStream>? = nil
    var core: StreamRenderState
    /// Whether the stream is corked: in silence it is, so the server does not wake us.
    var corked = true
    /// When to cork after the stream ran dry (its last frames still in the sink), 0 when not due.
    var corkAt: UInt64 = 0
    /// Set when the stream failed; frames are then discarded until another is installed.
    var broken = false
    /// The server's write index in frames: where the next plain write lands. Only our writes (and
    /// their seeks) move it: the stream is never flushed, so it stays the same on both sides.
    var written: UInt64 = 0
    /// Where the silence a STOP queued after its fade begins (stream frames), while some is queued:
    /// the next sound is written over it instead of after it.
    var silenceFrom: UInt64 = .max
    /// The first ring position of the frames written back to back up to the write index; stream
    /// frame = ring position + `written - handedOver` across them.
    var runRing: UInt64 = 0
    /// The timing request in flight, and when the last one was sent (MonotonicClock ns).
    var timing: OpaquePointer? = nil
    var timingAskedAt: UInt64 = 0
    /// When the stream was last uncorked (wall clock, µs, as libpulse stamps timing replies).
    var uncorkedAt: UInt64 = 0
    /// While a STOP waits for a timing reply to place its fade: until when at most (MonotonicClock
    /// ns); 0 when no STOP waits.
    var stopWaitUntil: UInt64 = 0
    /// On a server that does not rewind, how far it reads at a cycle is learned from its timing
    /// replies: the read index and stamp of the last one seen, and the smallest step between two
    /// of them in this window of `stepWindow` steps and in the one before (a quantum that grows
    /// is followed within two windows).
    var lastReplyRead: UInt64 = 0
    var lastReplyStamp: UInt64 = 0
    var smallestStep: UInt64 = .max
    var smallestStepBefore: UInt64 = .max
    var stepsInWindow = 0
    /// Zeros to silence what stays queued after a STOP's fade: a buffer's worth.
    let zeros: UnsafeMutablePointer<Int16>
    let zeroFrames: Int

    init(core: consuming StreamRenderState, zeroFrames: Int) {
        self.timing = nil
        self.core = core
        self.zeroFrames = max(zeroFrames, 1)
        zeros = .allocate(capacity: self.zeroFrames)
        zeros.initialize(repeating: 0, count: self.zeroFrames)
    }

    deinit {
        zeros.deallocate()
    }
}

/// Runs the render loop until `shared.running` is cleared.
@_noLocks
func runPulseLoop(_ state: inout PulseRenderState, ring: SampleRing, shared: RenderShared, handoff: HandoffSlots) {
    while shared.running.load(ordering: .acquiring) {
        adoptInstalledStream(&state, handoff: handoff)
        if let box = state.stream, !state.broken {
            pulseStep(&state, box: box, ring: ring, shared: shared)
        } else {
            discardStep(&state, ring: ring, shared: shared)
        }
    }
}

/// Lets go of what the loop still holds of its stream before the stream is handed back at exit.
@_noLocks
func finishPulseLoop(_ state: inout PulseRenderState) {
    if let timing = state.timing {
        RealTimePulse.release(timing)
        state.timing = nil
    }
}

/// Takes the stream the synth thread installed, if any, handing the old one back to be closed.
@_noLocks
private func adoptInstalledStream(_ state: inout PulseRenderState, handoff: HandoffSlots) {
    var current: UnsafeMutableRawPointer? = nil
    if let stream = state.stream { current = UnsafeMutableRawPointer(stream) }
    let content = handoff.takeInstalled(holding: current)
    if case .empty = content { return }
    if state.stream != nil {
        if let timing = state.timing {
            RealTimePulse.release(timing)
            state.timing = nil
        }
    }
    handoff.finishAdoption(retiring: current)
    state.broken = false
    state.corked = true
    state.corkAt = 0
    state.written = 0
    state.silenceFrom = .max
    state.runRing = state.core.handedOver
    state.lastReplyStamp = 0
    state.smallestStep = .max
    state.smallestStepBefore = .max
    state.stepsInWindow = 0
    if case .handle(let raw) = content {
        state.stream = raw.assumingMemoryBound(to: PulseStream.self)
    } else {
        state.stream = nil
    }
}

/// One turn with a working stream: a STOP that must first learn where the server reads waits
/// for it; then the requests are answered, the stream corked once it has played out, the position
/// published, and the stream's main loop waited in.
@_noLocks
private func pulseStep(
    _ state: inout PulseRenderState, box: UnsafeMutablePointer<PulseStream>, ring: SampleRing, shared: RenderShared
) {
    if !box.pointee.rewindsOnRewrite { learnReadStep(&state, box: box) }
    if waitForStopTiming(&state, box: box, shared: shared) { return }
    let pending = answerRequests(&state, box: box, ring: ring, shared: shared)
    let now = RealTime.monotonicNanoseconds()
    if !state.corked && !pending { corkWhenPlayedOut(&state, box: box, now: now) }
    if !state.corked {
        askForTiming(
            &state, stream: box.pointee.stream, now: now, period: box.pointee.timingFrames,
            rate: box.pointee.sampleRate)
    }
    let queuedNow =
        state.corked
        ? 0
        : queuedFrames(
            box, written: state.written, handedOver: state.core.handedOver, wokeAt: state.uncorkedAt,
            taken: learnedStep(state))
    publishStreamPosition(&state.core, queued: queuedNow, running: !state.corked, ring: ring, shared: shared)
    waitForServer(&state, box: box, pending: pending, queued: queuedNow, now: now, shared: shared)
}

/// Whether a STOP waits for a timing reply before its fade is placed (and this turn waited in the
/// main loop for it).
@_noLocks
private func waitForStopTiming(
    _ state: inout PulseRenderState, box: UnsafeMutablePointer<PulseStream>, shared: RenderShared
) -> Bool {
    // (Not one `&&` chain: its right side is a closure, which would retain.)
    var stopWaits = !state.corked
    if stopWaits { stopWaits = state.corkAt == 0 }
    if stopWaits { stopWaits = hasPendingStop(state.core, shared: shared) }
    guard stopWaits else { return false }
    // The fade must start where the server is: with no recent timing reply taken while the
    // stream plays (a new stream, one just uncorked), ask for one and wait for it, a few
    // milliseconds, rather than cut at a guessed frame. The sound plays on meanwhile. (A
    // stream that ran dry has nothing left to fade: no wait.)
    let start = RealTime.monotonicNanoseconds()
    if state.stopWaitUntil == 0 { state.stopWaitUntil = start + stopTimingWait }
    var wait = start < state.stopWaitUntil
    if wait { wait = !hasFreshTiming(&state, box: box) }
    guard wait else { return false }
    if state.timing == nil { requestTiming(&state, stream: box.pointee.stream, now: start) }
    let left = Int32(truncatingIfNeeded: (state.stopWaitUntil - start) / 1000)
    runMainloop(&state, box: box, timeout: left, shared: shared)
    return true
}

/// Answers the ring's requests: a STOP's fade placed over what the server has not read yet, new
/// frames written (uncorking the stream). Whether anything was to be written.
@_noLocks
private func answerRequests(
    _ state: inout PulseRenderState, box: UnsafeMutablePointer<PulseStream>, ring: SampleRing, shared: RenderShared
) -> Bool {
    // The fade of a STOP replaces what is queued from the first frame the server has surely not
    // read yet, in place: written over the same stream positions, it continues the sound exactly
    // wherever playback is, and silence replaces the rest. (A flush would move the server's write
    // index to wherever its read index is then, and the fade would start at a guessed sample.)
    let unread = firstUnreadFrame(
        box, written: state.written, wokeAt: state.uncorkedAt, step: readStep(state, box: box),
        oldest: state.written > state.core.historyFrames ? state.written - state.core.historyFrames : 0)
    let queuedRing = state.written > unread ? state.written - unread : 0
    var fadeFrom = state.core.handedOver > queuedRing ? state.core.handedOver - queuedRing : 0
    // Before the run, the stream holds other frames (silence a STOP queued): fade from the run's start.
    if fadeFrom < state.runRing { fadeFrom = state.runRing }
    let requests = takeStreamRequests(&state.core, fadeFrom: fadeFrom, ring: ring, shared: shared)
    if requests.stopped {
        state.stopWaitUntil = 0
        // The server found the stream empty since the last frames were written (a cork is due):
        // the sound already ended.
        if state.corked || (queuedRing == 0 && state.corkAt != 0) {
            // Nothing of the sound is left to hear: no fade.
            discardFromStream(&state.core, available: 0, ring: ring)
        } else {
            // (Nothing queued by our estimate, yet the server did not run dry: the fade follows
            // the last frame written, which is what the listener hears last.)
            writeFadeInPlace(&state, box: box, from: fadeFrom + state.written - state.core.handedOver, ring: ring)
        }
    }
    let pending = requests.available > 0 || state.core.isFading
    if pending { writeRequested(&state, box: box, available: requests.available, unread: unread, ring: ring) }
    return pending
}

/// Writes the fade or `available` new frames, uncorking the stream first; new frames go over the
/// silence a STOP left queued, from `unread` (the first frame the server has surely not read) at
/// the earliest.
@_noLocks
private func writeRequested(
    _ state: inout PulseRenderState, box: UnsafeMutablePointer<PulseStream>, available: UInt64, unread: UInt64,
    ring: SampleRing
) {
    if available > 0 && (state.corkAt != 0 || box.pointee.signals.pointee.underflow) {
        // The stream ran dry and starts again: to the server this is a new start, like an
        // uncork, so a STOP soon after waits for a timing reply taken since (one from before
        // says where it was reading silence, and a fade placed by it cut the sound on
        // pipewire-pulse), and one is asked for at once.
        state.uncorkedAt = RealTime.wallMicroseconds()
        state.timingAskedAt = 0
    }
    state.corkAt = 0
    // New frames: the stream is no longer dry (an underflow reported before them is stale).
    if available > 0 { box.pointee.signals.pointee.underflow = false }
    if state.corked {
        RealTimePulse.cork(box.pointee.stream, false)
        state.corked = false
        state.uncorkedAt = RealTime.wallMicroseconds()
        // Where the server reads is asked at once, so that a STOP soon after finds it known.
        state.timingAskedAt = 0
    }
    if available > 0 && state.silenceFrom < state.written {
        // A STOP left silence queued: the new sound goes over it, as early as is safe.
        let target = max(state.silenceFrom, unread)
        state.silenceFrom = .max
        writeFrames(&state, box: box, available: available, ring: ring, at: target)
    } else {
        writeFrames(&state, box: box, available: available, ring: ring, at: nil)
    }
}

/// Corks a stream the server has read to its end once what it mixed has played out of the sink.
@_noLocks
private func corkWhenPlayedOut(_ state: inout PulseRenderState, box: UnsafeMutablePointer<PulseStream>, now: UInt64) {
    let stream = box.pointee.stream
    if box.pointee.signals.pointee.underflow {
        box.pointee.signals.pointee.underflow = false
        // The server has read everything; what it mixed already plays out of the sink first.
        var sinkLatency: UInt64 = 0
        if let timing = RealTimePulse.timing(stream) { sinkLatency = timing.sink_usec }
        state.corkAt = now + (sinkLatency < 500_000 ? sinkLatency : 500_000) * 1000 + 10_000_000
    }
    if state.corkAt != 0 && now >= state.corkAt {
        // A corked stream costs no wakeups, here or in the server.
        RealTimePulse.cork(stream, true)
        state.corked = true
        state.corkAt = 0
    }
}

/// Waits in the stream's main loop. While sound plays, the server's requests wake us; at the
/// latest after two of them (should one not come), to publish the position and ask where the
/// server reads (the control thread times events from the published clock in between); when a
/// cork is due, then; in silence, only for the server or our eventfd.
@_noLocks
private func waitForServer(
    _ state: inout PulseRenderState, box: UnsafeMutablePointer<PulseStream>, pending: Bool, queued: UInt64,
    now: UInt64, shared: RenderShared
) {
    var timeout: Int32 = -1
    if !state.corked {
        timeout = Int32(box.pointee.timingFrames * 1_000_000 / box.pointee.sampleRate)
        if state.corkAt > now {
            let untilCork = Int32(truncatingIfNeeded: (state.corkAt - now) / 1000)
            if !pending && queued == 0 { timeout = untilCork }
        }
    }
    runMainloop(&state, box: box, timeout: timeout, shared: shared)
}

/// How long a STOP waits at most for a timing reply before placing its fade from what is known.
private let stopTimingWait: UInt64 = 60_000_000

/// One wait of the stream's main loop (`timeout` µs, -1: none), then the stream's health checked.
@_noLocks
private func runMainloop(
    _ state: inout PulseRenderState, box: UnsafeMutablePointer<PulseStream>, timeout: Int32, shared: RenderShared
) {
    let result = RealTimePulse.iterate(box.pointee.mainloop, timeout: timeout)
    if let code = RealTimePulse.failure(context: box.pointee.context, stream: box.pointee.stream, after: result) {
        markBroken(&state, serial: box.pointee.serial, code: code, shared: shared)
    }
}

/// Writes what the server has room for: the fade first, then ring frames; the first piece at
/// stream frame `target` when given (over silence a STOP queued), else at the write index.
@_noLocks
private func writeFrames(
    _ state: inout PulseRenderState, box: UnsafeMutablePointer<PulseStream>, available: UInt64, ring: SampleRing,
    at target: UInt64?
) {
    let stream = box.pointee.stream
    var left = available
    var seekTo = target
    while true {
        let writable = RealTimePulse.writableBytes(stream)
        guard writable >= MemoryLayout<Int16>.size || seekTo != nil else { return }
        guard left > 0 || state.core.isFading else { return }
        var bytes = writable >= MemoryLayout<Int16>.size ? writable : box.pointee.periodFrames * MemoryLayout<Int16>.size
        guard let data = RealTimePulse.beginWrite(stream, bytes: &bytes) else { return }
        let frames = bytes / MemoryLayout<Int16>.size
        let before = ring.consumerPosition()
        if seekTo != nil || before != state.core.handedOver { state.runRing = before }
        let filled = fillFromStream(
            &state.core, into: data.assumingMemoryBound(to: Int16.self), frames: frames, available: left, ring: ring)
        let taken = ring.consumerPosition() - before
        left = left > taken ? left - taken : 0
        if filled == 0 {
            RealTimePulse.cancelWrite(stream)
            return
        }
        let start = seekTo ?? state.written
        seekTo = nil
        let offset = (Int64(bitPattern: start) - Int64(bitPattern: state.written)) * Int64(MemoryLayout<Int16>.size)
        let result = RealTimePulse.write(stream, data, bytes: filled * MemoryLayout<Int16>.size, offset: offset)
        if result < 0 { return }
        state.written = start + UInt64(filled)
    }
}

/// Writes the fade a STOP queued over the stream from frame `start` on, and silence after it up to
/// the write index, so that nothing of the stopped sound is left to play.
@_noLocks
private func writeFadeInPlace(
    _ state: inout PulseRenderState, box: UnsafeMutablePointer<PulseStream>, from start: UInt64, ring: SampleRing
) {
    let stream = box.pointee.stream
    let end = state.written
    var position = start
    var first = true
    while position < end || (first && state.core.isFading) {
        let wanted = end > position ? Int(end - position) : state.zeroFrames
        var bytes = (wanted < state.zeroFrames ? wanted : state.zeroFrames) * MemoryLayout<Int16>.size
        guard let data = RealTimePulse.beginWrite(stream, bytes: &bytes) else { return }
        let frames = bytes / MemoryLayout<Int16>.size
        let buffer = data.assumingMemoryBound(to: Int16.self)
        var filled = fillFromStream(&state.core, into: buffer, frames: frames, available: 0, ring: ring)
        if first { state.silenceFrom = start + UInt64(filled) }
        let silence = end > position + UInt64(filled) ? Int(end - position) - filled : 0
        let zeros = silence < frames - filled ? silence : frames - filled
        if zeros > 0 {
            UnsafeMutableRawPointer(buffer + filled).copyMemory(
                from: state.zeros, byteCount: zeros * MemoryLayout<Int16>.size)
            filled += zeros
        }
        if filled == 0 {
            RealTimePulse.cancelWrite(stream)
            return
        }
        // A negative offset writes over queued frames.
        let offset = (Int64(bitPattern: position) - Int64(bitPattern: state.written)) * Int64(MemoryLayout<Int16>.size)
        let result = RealTimePulse.write(stream, data, bytes: filled * MemoryLayout<Int16>.size, offset: offset)
        if result < 0 { return }
        position += UInt64(filled)
        // The server's write index is where this piece ended: ours too.
        state.written = position
        first = false
    }
}

/// The first stream frame the server has surely not read yet: its read index in the last timing
/// reply, moved on at the sample rate since the reply was current, and a margin for the time our
/// next command takes to reach it; never past the write index. The margin is 2 ms on a stream
/// that has been playing, 5 ms in the 200 ms after it woke (`wokeAt`: uncorked, or started again
/// after running dry), when the server reads ahead of the clock in steps: with 2 ms there, a STOP
/// 20-25 ms after the wake faded a few milliseconds late now and then (half the level left in its
/// last millisecond on PulseAudio, a cut on pipewire-pulse). (Not libpulse's interpolated clock:
/// its smoother can stay frozen for seconds on a new stream, far from where the server reads.)
///
/// A server that does not rewind (`step` > 0, the frames it takes at a cycle) may take a whole
/// step at any moment, the instant after its reply included, and what it took is heard however it
/// is rewritten: past the reply's read index lie a step for every cycle that can begin before our
/// command reaches it. (Moving on at the sample rate alone, a STOP on pipewire-pulse with
/// PipeWire's default quantum of 21 ms cut the speech once in 20.)
///
/// On a sink that rewinds (``PulseStream/sinkRewinds``), once the stream has played 200 ms since
/// it woke, the first frame the listener has surely not heard is taken instead: the reply's read
/// index less what the sink held then, moved on at the sample rate, and a margin for our command
/// to reach the sink's thread and for what a sink keeps from rewinding (`listenerMargin`). Written
/// there, before the server's read index, the fade makes the server rewind its sink: it plays
/// where the listener is instead of after everything the sink mixed ahead (5 ms on the bench's
/// null sink, the stream's latency on a desktop's). Never before `oldest`: the fade is made from
/// frames the render thread remembers.
@_noLocks
private func firstUnreadFrame(
    _ box: UnsafeMutablePointer<PulseStream>, written: UInt64, wokeAt: UInt64, step: UInt64, oldest: UInt64
) -> UInt64 {
    guard let info = RealTimePulse.timing(box.pointee.stream), info.read_index_corrupt == 0, info.read_index >= 0
    else { return written }
    let rate = UInt64(box.pointee.sampleRate)
    let stamp = UInt64(info.timestamp.tv_sec) &* 1_000_000 &+ UInt64(info.timestamp.tv_usec)
    let now = RealTime.wallMicroseconds()
    let age = now > stamp ? now - stamp : 0
    let moved = (age < 1_000_000 ? age : 1_000_000) * rate / 1_000_000
    var margin = rate / 500
    if now > wokeAt { if now - wokeAt < 200_000 { margin = rate / 200 } }  // (no `&&`: its closure would retain)
    let replyRead = UInt64(info.read_index) / UInt64(MemoryLayout<Int16>.size)
    var read = replyRead + moved + margin
    var listening = box.pointee.sinkRewinds
    if listening { listening = !box.pointee.signals.pointee.moved }
    if listening { listening = now > wokeAt }
    if listening { listening = now - wokeAt >= 200_000 }
    if listening {
        let inSink = info.sink_usec * rate / 1_000_000
        let heard = replyRead + moved > inSink ? replyRead + moved - inSink : 0
        let listener = heard + listenerMargin * rate / 1_000_000
        if listener < read && listener >= oldest { read = listener }
    }
    if step > 0 {
        let cycleMicroseconds = step * 1_000_000 / rate
        let untilArrival = (age < 1_000_000 ? age : 1_000_000) + commandTransit
        let cycles = 1 + untilArrival / (cycleMicroseconds > 0 ? cycleMicroseconds : 1)
        // (A frame a cycle more: the step the server takes can be a frame longer than the smallest.)
        let taken = replyRead + (step + 1) * cycles
        if taken > read { read = taken }
    }
    return read < written ? read : written
}

/// How long a command takes at most, by our reckoning, to reach the server from the render thread.
private let commandTransit: UInt64 = 2_000

/// How far past the frame the listener hears a fade that makes the sink rewind starts (µs): our
/// command's transit, the sink thread's wake, and the rewind safeguard of PulseAudio's ALSA sinks
/// (1.33 ms), which they never take back.
private let listenerMargin: UInt64 = 4_000

/// On a server that does not rewind, the steps between its timing replies (the frames it took in
/// between, a whole number of cycles) teach how far it reads at a cycle: the smallest seen.
@_noLocks
private func learnReadStep(_ state: inout PulseRenderState, box: UnsafeMutablePointer<PulseStream>) {
    guard let info = RealTimePulse.timing(box.pointee.stream), info.read_index_corrupt == 0, info.read_index >= 0
    else { return }
    let stamp = UInt64(info.timestamp.tv_sec) &* 1_000_000 &+ UInt64(info.timestamp.tv_usec)
    if stamp == state.lastReplyStamp { return }
    let read = UInt64(info.read_index) / UInt64(MemoryLayout<Int16>.size)
    if state.lastReplyStamp != 0 && read > state.lastReplyRead {
        let step = read - state.lastReplyRead
        if step < state.smallestStep { state.smallestStep = step }
        state.stepsInWindow += 1
        if state.stepsInWindow >= stepWindow {
            state.smallestStepBefore = state.smallestStep
            state.smallestStep = .max
            state.stepsInWindow = 0
        }
    }
    state.lastReplyStamp = stamp
    state.lastReplyRead = read
}

/// Steps in one window of ``learnReadStep(_:box:)``: about 0.2 s of timing replies.
private let stepWindow = 16

/// The frames a server takes at a cycle, for placing a fade on one that does not rewind (0 on one
/// that does): the smallest step learned, or before any is, the most its quantum can be.
@_noLocks
private func readStep(_ state: borrowing PulseRenderState, box: UnsafeMutablePointer<PulseStream>) -> UInt64 {
    if box.pointee.rewindsOnRewrite { return 0 }
    let learned = learnedStep(state)
    return learned > 0 ? learned : UInt64(box.pointee.readStepBound)
}

/// The smallest step learned on a server that does not rewind; 0 before any (and on one that does,
/// where none is learned).
@_noLocks
private func learnedStep(_ state: borrowing PulseRenderState) -> UInt64 {
    let learned = state.smallestStep < state.smallestStepBefore ? state.smallestStep : state.smallestStepBefore
    return learned == .max ? 0 : learned
}

/// Whether the last timing reply tells where the server reads now: taken while the stream played
/// (after it was last woken), and recent. In the 200 ms after a wake the server reads ahead of the
/// clock in steps, so only a reply as recent as the asking cadence (and 5 ms) will do; later it
/// reads at the sample rate, and a reply of the last 100 ms, moved on at that rate, says where as
/// well as a newer one (the two clocks part by microseconds over that time). Without that second
/// rule a STOP would often come after the window closed and wait for a reply, as the thread
/// asks only every other request of the server. (Not on pipewire-pulse, which does not rewind:
/// there a fade placed from an older reply starts a quantum later.)
@_noLocks
private func hasFreshTiming(_ state: inout PulseRenderState, box: UnsafeMutablePointer<PulseStream>) -> Bool {
    if let timing = state.timing {
        if RealTimePulse.isRunning(timing) { return false }
        RealTimePulse.release(timing)
        state.timing = nil
    }
    guard let info = RealTimePulse.timing(box.pointee.stream), info.read_index_corrupt == 0, info.playing != 0
    else { return false }
    let stamp = UInt64(info.timestamp.tv_sec) &* 1_000_000 &+ UInt64(info.timestamp.tv_usec)
    guard stamp > state.uncorkedAt else { return false }
    let period = UInt64(box.pointee.timingFrames) * 1_000_000 / UInt64(max(box.pointee.sampleRate, 1))
    let now = RealTime.wallMicroseconds()
    if now <= stamp { return true }
    var steady = box.pointee.rewindsOnRewrite
    if steady { steady = stamp >= state.uncorkedAt + 200_000 }
    return now - stamp <= (steady ? 100_000 : period + 5_000)
}

/// Sends a timing request now; the answer comes through the main loop.
@_noLocks
private func requestTiming(_ state: inout PulseRenderState, stream: OpaquePointer, now: UInt64) {
    state.timingAskedAt = now
    state.timing = RealTimePulse.requestTiming(stream)
}

/// Asks the server where playback is, once per `period` frames while the stream plays and no answer is due:
/// libpulse interpolates between the answers, and a corked stream asks nothing (no wakeups).
@_noLocks
private func askForTiming(_ state: inout PulseRenderState, stream: OpaquePointer, now: UInt64, period: Int, rate: Int) {
    if let timing = state.timing {
        if RealTimePulse.isRunning(timing) { return }
        RealTimePulse.release(timing)
        state.timing = nil
    }
    let interval = UInt64(period) * 1_000_000_000 / UInt64(rate > 0 ? rate : 1)
    guard now >= state.timingAskedAt + interval else { return }
    state.timingAskedAt = now
    // The answer comes through the main loop.
    state.timing = RealTimePulse.requestTiming(stream)
}

/// Ring frames handed to the server and not heard yet: the frames written past the one the sink
/// plays now, which is the read index of the server's last timing reply less what the sink held
/// then, moved on at the sample rate since the reply (or since the stream last woke, for a reply
/// from before it: the server reads on from where it stopped), and never past the write index.
/// (Not libpulse's interpolated latency: with short messages at 900 words a minute it gave none,
/// an error or a negative one, at every step of a message, so everything handed over counted as
/// heard and marks went out about 40 ms before their sound.) On a server that does not rewind,
/// the read index runs a whole step (`taken`) ahead of what is heard: the graph plays the quantum
/// it took over the cycle after (without that, marks came 16.7 ms early on pipewire-pulse at
/// PipeWire's 21 ms quantum, 6.5 ms at 5.3 ms).
@_noLocks
private func queuedFrames(
    _ box: UnsafeMutablePointer<PulseStream>, written: UInt64, handedOver: UInt64, wokeAt: UInt64, taken: UInt64
) -> UInt64 {
    guard let info = RealTimePulse.timing(box.pointee.stream), info.read_index_corrupt == 0, info.read_index >= 0
    else { return 0 }
    let rate = UInt64(box.pointee.sampleRate)
    let stamp = UInt64(info.timestamp.tv_sec) &* 1_000_000 &+ UInt64(info.timestamp.tv_usec)
    let since = stamp > wokeAt ? stamp : wokeAt
    let now = RealTime.wallMicroseconds()
    let age = now > since ? now - since : 0
    let moved = (age < 1_000_000 ? age : 1_000_000) * rate / 1_000_000
    let inSink = info.sink_usec * rate / 1_000_000
    var heard = UInt64(info.read_index) / UInt64(MemoryLayout<Int16>.size) + moved
    heard = heard > inSink + taken ? heard - inSink - taken : 0
    let frames = written > heard ? written - heard : 0
    return frames < handedOver ? frames : handedOver
}

/// No working stream: frames are dropped as if heard, and the thread sleeps until woken.
@_noLocks
private func discardStep(_ state: inout PulseRenderState, ring: SampleRing, shared: RenderShared) {
    let requests = takeStreamRequests(&state.core, fadeFrom: state.core.handedOver, ring: ring, shared: shared)
    discardFromStream(&state.core, available: requests.available, ring: ring)
    publishStreamPosition(&state.core, queued: 0, running: false, ring: ring, shared: shared)
    if requests.available > 0 { return }
    RealTime.wait(on: shared.renderWakeFD, milliseconds: -1)
}

/// Stops using the stream until the synth thread installs another, and records why.
@_noLocks
private func markBroken(
    _ state: inout PulseRenderState, serial: UInt64, code: Int32, shared: RenderShared
) {
    state.broken = true
    shared.reportFailure(code: code, operation: 0, serial: serial)
}
