internal import CALSA
import Glibc
import Synchronization

// The render thread: real-time. Everything in this file, RenderStop.swift, RenderDevice.swift,
// PlaybackClock.publish, HistoryRing and DeviceMailbox runs on it and is checked by the compiler
// (`@_noLocks`): no locks, no allocation, no logging, no String, no Array. It never opens or closes
// a device; it adopts and retires them through mailboxes (see `AudioOutput.beginJob`). C calls
// sit in `_unsafePerformance`, each with a comment on why it is acceptable here. (In a debug build
// the `@_noLocks` check cannot see into other files, so every function the loop calls elsewhere
// carries the attribute itself.)

/// The device call that failed, as stored in `RenderShared.lastFailureOperation`.
enum RenderOperation: UInt8 {
    case none = 0
    case write, recover, start, drop, prepare, drain

    /// The value stored in `RenderShared.lastFailureOperation` (the raw value, readable on the
    /// render thread from any file).
    var code: UInt8 {
        @_noLocks get {
            switch self {
            case .none: 0
            case .write: 1
            case .recover: 2
            case .start: 3
            case .drop: 4
            case .prepare: 5
            case .drain: 6
            }
        }
    }

    /// The operation as a verb phrase for ``ALSAError``.
    var phrase: String {
        switch self {
        case .none: "play audio"
        case .write: "write audio"
        case .recover: "recover from an underrun"
        case .start: "start playback"
        case .drop: "stop playback"
        case .prepare: "prepare the device"
        case .drain: "play the end of a sound"
        }
    }
}

/// What the render thread keeps between periods: plain values and pointers, set up before the loop.
struct RenderState {
    /// The adopted device, and its serial (0 when none).
    var device: UnsafeMutablePointer<PCMDevice>? = nil
    var deviceSerial: UInt64 = 0
    var pcm: OpaquePointer? = nil
    var periodBuffer: UnsafeMutablePointer<Int16>? = nil
    var periodFrames = 0
    /// One period in milliseconds, at least 1: how long to wait while the device drains.
    var periodMilliseconds: Int32 = 1
    var sampleRate = 0
    var history: HistoryRing? = nil
    /// The length of the fade-out on STOP (a few milliseconds, at most a period).
    var fadeFrames = 0
    /// Whether `snd_pcm_rewind` really takes frames back on this device: 0 not known yet, 1 yes, -1 no.
    var rewindWorks: Int8 = 0
    /// Set when a device call failed for good; the loop then discards as if played.
    var broken = false

    /// The ring position just past the last frame handed to the device.
    var handedOver: UInt64 = 0
    var adoptedJob: UInt64 = 0
    /// Samples of jobs up to this one are discarded (they were stopped).
    var mutedThrough: UInt64 = 0
    var handledStop: UInt64 = 0
    var played: UInt64 = 0
    /// The device's queue at the last wait that ran its full period, -1 if the last wait did not.
    var queuedAtTimeout = -1

    var usable: Bool {
        @_noLocks get { pcm != nil && !broken }
    }
}

/// Runs the render loop until `shared.running` is cleared.
@_noLocks
func runRenderLoop(_ state: inout RenderState, ring: SampleRing, shared: RenderShared) {
    while shared.running.load(ordering: .acquiring) {
        renderStep(&state, ring: ring, shared: shared)
    }
}

/// Plays (or discards) at most one period, publishes the played position, and waits if idle.
@_noLocks
func renderStep(_ state: inout RenderState, ring: SampleRing, shared: RenderShared) {
    // Load order matters. `beginJob` stores discardBefore, then currentJob, with release. Loading
    // the write position before the job means that if we see any sample of a new job we also see
    // the job, so muting below never eats new samples. The limit is the control thread's: it lifts
    // it only after the previous job ended, fully played or stopped (and so muted), so a lifted
    // limit seen before the new job cannot let a stale sample through.
    let limit = shared.playbackLimit.load(ordering: .acquiring)
    let written = ring.producerPosition()
    let job = shared.currentJob.load(ordering: .acquiring)
    var read = ring.consumerPosition()

    if job != state.adoptedJob {
        state.adoptedJob = job
        let stale = shared.discardBefore.load(ordering: .acquiring)
        if stale > read { read = stale }
    }
    adoptInstalledDevice(&state, shared: shared)

    let stop = shared.stopRequest.load(ordering: .acquiring)
    if stop != state.handledStop {
        state.handledStop = stop
        if state.usable, let pcm = state.pcm {
            // The stopped job's samples still in the ring continue the sound the device was
            // playing (when nothing was discarded in between), so a fade-out can be made of them.
            let continues = job == stop && read == state.handedOver
            let ringEnd = continues ? (limit < written ? limit : written) : read
            silence(&state, pcm: pcm, ring: ring, ringEnd: ringEnd, shared: shared)
        }
        if stop > state.mutedThrough { state.mutedThrough = stop }
        if job <= stop && written > read { read = written }
        wake(shared.controlWakeFD)
    }
    // A stopped job stays muted until a later job begins: whatever its producer still writes goes.
    if job <= state.mutedThrough && written > read { read = written }
    ring.consume(upTo: read)

    let end = limit < written ? limit : written
    var didWork = false
    if end > read {
        didWork = true
        if state.usable {
            read = writePeriod(&state, from: read, count: end - read, ring: ring, shared: shared)
        } else {
            // No working device: discard as if played, so positions (and events) still advance.
            read = end
            ring.consume(upTo: read)
        }
    }

    let queued = queuedFrames(state)
    var played = read
    if queued > 0 {
        let frames = UInt64(queued)
        played = state.handedOver > frames ? state.handedOver - frames : 0
    }
    if played > state.played { state.played = played }
    shared.playedPosition.store(state.played, ordering: .releasing)
    publishClock(state, queued: queued, shared: shared)
    let threshold = shared.notifyThreshold.load(ordering: .acquiring)
    if state.played >= threshold {
        // Exactly one wake per threshold: the control thread may be replacing it concurrently.
        let (exchanged, _) = shared.notifyThreshold.compareExchange(
            expected: threshold, desired: .max, ordering: .acquiringAndReleasing)
        if exchanged { wake(shared.controlWakeFD) }
    }

    if didWork {
        state.queuedAtTimeout = -1
    } else {
        waitForWork(&state, queued: queued, shared: shared)
    }
}

/// Copies up to one period from `read` into the period buffer and writes it; returns the new read position.
@_noLocks
private func writePeriod(
    _ state: inout RenderState, from read: UInt64, count: UInt64, ring: SampleRing, shared: RenderShared
) -> UInt64 {
    guard let pcm = state.pcm, let buffer = state.periodBuffer else { return read }
    let frames = count < UInt64(state.periodFrames) ? Int(count) : state.periodFrames
    ring.copy(from: read, count: frames, to: buffer)
    // snd_pcm_writei: the device write. It blocks until the device has room, which paces this thread.
    let result = _unsafePerformance { snd_pcm_writei(pcm, buffer, snd_pcm_uframes_t(frames)) }
    if result > 0 {
        let next = read + UInt64(result)
        state.history?.remember(buffer, count: Int(result), from: read)
        state.handedOver = next
        ring.consume(upTo: next)
        return next
    }
    let code = Int32(truncatingIfNeeded: result)
    if code == -EPIPE || code == -ESTRPIPE {
        _ = shared.underruns.add(1, ordering: .relaxed)
        // snd_pcm_recover: re-prepares the device after an underrun or resume; no allocation.
        let recovered = _unsafePerformance { snd_pcm_recover(pcm, code, 1) }
        if recovered < 0 { markBroken(&state, shared: shared, code: recovered, operation: RenderOperation.recover) }
    } else if code == -EAGAIN || code == -EINTR || code == 0 {
        // Nothing accepted: let the next step try again.
    } else {
        markBroken(&state, shared: shared, code: code, operation: RenderOperation.write)
    }
    return read
}

/// Waits for new samples, a stop, or (while the device drains) one period.
@_noLocks
private func waitForWork(_ state: inout RenderState, queued: Int, shared: RenderShared) {
    var timeout: Int32 = -1
    if let pcm = state.pcm, state.usable {
        // snd_pcm_state: reads the device state; no allocation.
        let current = _unsafePerformance { snd_pcm_state(pcm) }.rawValue
        let stalled = queued > 0 && queued == state.queuedAtTimeout && current == SND_PCM_STATE_RUNNING.rawValue
        if current == SND_PCM_STATE_XRUN.rawValue || stalled {
            // The device ran dry: the normal end of a sound, not an underrun. On the PulseAudio
            // plugin (the desktop's `default`) the server may still hold the sound's last frames,
            // and it keeps them (the queue stops moving) until it has `buffer - period` frames
            // again. snd_pcm_drain: plays them out, blocking at most one buffer; snd_pcm_prepare:
            // readies the device for the next sound. Neither allocates. On hardware the queue is
            // empty by now and the drain returns at once.
            let drained = _unsafePerformance { snd_pcm_drain(pcm) }
            let prepared = drained < 0 ? drained : _unsafePerformance { snd_pcm_prepare(pcm) }
            if drained < 0 || prepared < 0 {
                markBroken(
                    &state, shared: shared, code: drained < 0 ? drained : prepared,
                    operation: drained < 0 ? RenderOperation.drain : RenderOperation.prepare)
            }
            state.queuedAtTimeout = -1
            return
        }
        if queued > 0 {
            timeout = state.periodMilliseconds
            if current == SND_PCM_STATE_PREPARED.rawValue {
                // snd_pcm_start: fewer frames than the start threshold are queued (a short sound or
                // a sound's last period), so start them by hand.
                let started = _unsafePerformance { snd_pcm_start(pcm) }
                if started < 0 { markBroken(&state, shared: shared, code: started, operation: RenderOperation.start) }
            }
        }
    }
    // Nothing to write. While frames drain, wake every period to publish the played position.
    // Otherwise park until the producer or the control thread writes our eventfd: with nothing
    // queued there is nothing to keep fed, so blocking here cannot cause an underrun.
    // (Not snd_pcm_wait: it returns at once whenever the buffer has a period free, which would spin.)
    let fd = shared.renderWakeFD
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    // poll and read: a plain syscall wait on our own eventfd, then resetting its counter.
    let ready = _unsafePerformance { poll(&descriptor, 1, timeout) }
    state.queuedAtTimeout = ready == 0 ? queued : -1
    if descriptor.revents != 0 {
        var counter: UInt64 = 0
        _ = _unsafePerformance { read(fd, &counter, MemoryLayout<UInt64>.size) }
    }
}

/// Silences the device for a STOP, fading out instead of cutting wherever the device allows it.
///








/// Publishes the device clock: the played position now, and whether it is advancing.
@_noLocks
private func publishClock(_ state: RenderState, queued: Int, shared: RenderShared) {
    var running = false
    if queued > 0, let pcm = state.pcm, state.usable {
        // snd_pcm_state: reads the device state; no allocation.
        running = _unsafePerformance { snd_pcm_state(pcm) }.rawValue == SND_PCM_STATE_RUNNING.rawValue
    }
    var now = timespec()
    // clock_gettime: served by the vDSO without a system call; no allocation.
    _ = _unsafePerformance { clock_gettime(CLOCK_MONOTONIC, &now) }
    let nanoseconds = UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    let wasRunning = shared.clock.publish(
        position: state.played, time: nanoseconds, ceiling: state.handedOver,
        rate: running ? UInt64(state.sampleRate) : 0)
    // Until now the control thread could not time its next event from the clock (it waits for the
    // threshold wake, a period late at worst): tell it the clock runs.
    // (Nested ifs: the right side of `&&` is a closure, which would retain `shared`.)
    if running && !wasRunning {
        if shared.notifyThreshold.load(ordering: .acquiring) != .max { wake(shared.controlWakeFD) }
    }
}

/// Adds 1 to an eventfd without blocking.
@_noLocks
package func wake(_ fd: Int32) {
    var one: UInt64 = 1
    // write: one syscall on an eventfd; it only blocks if the counter would overflow 2^64 - 2.
    _ = _unsafePerformance { write(fd, &one, MemoryLayout<UInt64>.size) }
}
