import AudioStream
import Glibc
import Synchronization
import System

// The render thread: real-time. Everything in this file, RenderStop.swift, RenderDevice.swift and
// what they call in AudioStream runs on it and is checked by the compiler (`@_noLocks`): no locks,
// no allocation, no logging, no String, no Array. It never opens or closes a device; it adopts and
// retires them through a ``Handoff`` (see `ALSASink.beginJob`). Its C calls are in
// ALSA+RealTime.swift. (In a debug build the `@_noLocks` check cannot see into other files, so
// every function the loop calls elsewhere carries the attribute itself.)

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
    var jobs = JobTracking()
    var played: UInt64 = 0
    /// The device's queue at the last wait that ran its full period, -1 if the last wait did not.
    var queuedAtTimeout = -1

    var usable: Bool {
        @_noLocks get { pcm != nil && !broken }
    }
}

/// Runs the render loop until `shared.running` is cleared.
@_noLocks
func runRenderLoop(_ state: inout RenderState, ring: SampleRing, shared: RenderShared, handoff: HandoffSlots) {
    while shared.running.load(ordering: .acquiring) {
        renderStep(&state, ring: ring, shared: shared, handoff: handoff)
    }
}

/// Plays (or discards) at most one period, publishes the played position, and waits if idle.
@_noLocks
func renderStep(_ state: inout RenderState, ring: SampleRing, shared: RenderShared, handoff: HandoffSlots) {
    adoptInstalledDevice(&state, handoff: handoff)
    let requests = lookAtRequests(&state.jobs, handedOver: state.handedOver, ring: ring, shared: shared)
    if requests.stop != nil {
        if state.usable, let pcm = state.pcm {
            silence(&state, pcm: pcm, ring: ring, ringEnd: requests.ringEnd, shared: shared)
        }
    }
    let settled = settleRequests(&state.jobs, requests, ring: ring, shared: shared)
    var read = settled.read
    let end = settled.end

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
    var running = false
    if queued > 0, let pcm = state.pcm, state.usable { running = RealTimePCM.state(pcm).isRunning }
    shared.publishPlayed(
        state.played, at: RealTime.monotonicNanoseconds(), ceiling: state.handedOver,
        rate: running ? UInt64(state.sampleRate) : 0)

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
    let result = RealTimePCM.write(pcm, buffer, frames: frames)
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
        let recovered = RealTimePCM.recover(pcm, from: code)
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
        let current = RealTimePCM.state(pcm)
        let stalled = queued > 0 && queued == state.queuedAtTimeout && current.isRunning
        if current.isXrun || stalled {
            // The device ran dry: the normal end of a sound, not an underrun. On the PulseAudio
            // plugin (the desktop's `default`) the server may still hold the sound's last frames,
            // and it keeps them (the queue stops moving) until it has `buffer - period` frames
            // again. Draining plays them out, blocking at most one buffer; preparing readies the
            // device for the next sound. On hardware the queue is empty by now and the drain
            // returns at once.
            endAndPrepare(&state, pcm: pcm, shared: shared, draining: true)
            state.queuedAtTimeout = -1
            return
        }
        if queued > 0 {
            timeout = state.periodMilliseconds
            if current.isPrepared {
                // Fewer frames than the start threshold are queued (a short sound or a sound's
                // last period): start them by hand.
                let started = RealTimePCM.start(pcm)
                if started < 0 { markBroken(&state, shared: shared, code: started, operation: RenderOperation.start) }
            }
        }
    }
    // Nothing to write. While frames drain, wake every period to publish the played position.
    // Otherwise park until the producer or the control thread writes our eventfd: with nothing
    // queued there is nothing to keep fed, so blocking here cannot cause an underrun.
    // (Not snd_pcm_wait: it returns at once whenever the buffer has a period free, which would spin.)
    let ready = RealTime.wait(on: shared.renderWakeFD, milliseconds: timeout)
    state.queuedAtTimeout = ready == 0 ? queued : -1
}
