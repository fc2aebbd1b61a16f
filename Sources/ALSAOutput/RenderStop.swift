import AudioStream
import Synchronization
import System

// The render thread's STOP: real-time, like RenderLoop.swift (see there).

/// A sound cut mid-wave clicks, and Orca stops speech at every key press. So the frames the device
/// has queued are taken back (`snd_pcm_rewind`) where it really can (hardware, `plug`, `dmix`);
/// then a 4 ms fade-out of the sound that would have followed is written in their place and played
/// (the rest of the device's queue is its safety margin, under a period), and only then is the
/// device dropped. A device that cannot take frames back is cut at once, since a stop must be heard
/// at once: the PulseAudio plugin accepts a rewind but its server plays the frames anyway (checked
/// against `snd_pcm_delay` at the first stop, and undone with `snd_pcm_forward`).
@_noLocks
func silence(
    _ state: inout RenderState, pcm: OpaquePointer, ring: SampleRing, ringEnd: UInt64, shared: RenderShared
) {
    let reported = RealTimePCM.delay(pcm)
    let queuedBefore = max(reported ?? 0, 0)
    guard queuedBefore > 0 else {
        // Nothing is playing: the sound already ended (or the device does not hold frames at all).
        // A device that ran dry while the stopped sound still had frames to come was starved: an
        // underrun, counted here since no write follows to find it. A running device that cannot
        // say what it holds is dropped with whatever it holds: a cut.
        let current = RealTimePCM.state(pcm)
        if current.isXrun && ringEnd > state.handedOver {
            _ = shared.underruns.add(1, ordering: .relaxed)
        } else if reported == nil && current.isRunning {
            _ = shared.cutStops.add(1, ordering: .relaxed)
        }
        dropAndPrepare(&state, pcm: pcm, shared: shared)
        return
    }
    var rewound = 0
    if state.rewindWorks >= 0 {
        let result = RealTimePCM.rewindAll(pcm)
        if result > 0 {
            // The PulseAudio plugin accepts a rewind but its server keeps playing the frames:
            // believe only what the queue shows.
            if queuedBefore - queuedFrames(state) >= result / 2 {
                rewound = result
                state.rewindWorks = 1
            } else {
                // Put the plugin's pointer back where its server really is, or its accounting
                // of free room is off by the rewind.
                RealTimePCM.forward(pcm, frames: result)
                state.rewindWorks = -1
            }
        }
    }
    let queued = queuedBefore - rewound
    // What stays queued after a real rewind is the device's safety margin (well under a period).
    // Without one, appending a fade would only be heard after everything queued: cut instead.
    guard rewound > 0, queued <= state.periodFrames, let buffer = state.periodBuffer, let history = state.history
    else {
        _ = shared.cutStops.add(1, ordering: .relaxed)
        dropAndPrepare(&state, pcm: pcm, shared: shared)
        return
    }
    // The fade continues the sound from the first frame no longer queued: the frames taken back
    // (kept in the history), then the stopped job's samples that never reached the device.
    let count = makeFade(
        into: buffer, frames: state.fadeFrames, from: state.handedOver - UInt64(rewound),
        handedOver: state.handedOver, ringEnd: ringEnd, history: history, ring: ring)
    if count > 0 {
        // At most one period, into a buffer that has room for it after the rewind.
        _ = RealTimePCM.write(pcm, buffer, frames: count)
        // A short queue may sit below the start threshold.
        if RealTimePCM.state(pcm).isPrepared { _ = RealTimePCM.start(pcm) }
    }
    if queued + count > 0 {
        // Let the rest of the queue and the fade play (at most a period and 4 ms), then drop.
        let rate = state.sampleRate > 0 ? state.sampleRate : 1
        RealTime.sleep(milliseconds: Int32((queued + count) * 1000 / rate + 1))
        _ = shared.fadedStops.add(1, ordering: .relaxed)
    }
    dropAndPrepare(&state, pcm: pcm, shared: shared)
}

/// Drops whatever the device holds and readies it for the next sound.
@_noLocks
func dropAndPrepare(_ state: inout RenderState, pcm: OpaquePointer, shared: RenderShared) {
    endAndPrepare(&state, pcm: pcm, shared: shared, draining: false)
}

/// Ends what the device holds, played out (`draining`) or dropped, and readies it for the next sound.
@_noLocks
func endAndPrepare(_ state: inout RenderState, pcm: OpaquePointer, shared: RenderShared, draining: Bool) {
    let ended = draining ? RealTimePCM.drain(pcm) : RealTimePCM.drop(pcm)
    let prepared = ended < 0 ? ended : RealTimePCM.prepare(pcm)
    if ended < 0 || prepared < 0 {
        let failed = draining ? RenderOperation.drain : RenderOperation.drop
        markBroken(
            &state, shared: shared, code: ended < 0 ? ended : prepared,
            operation: ended < 0 ? failed : RenderOperation.prepare)
    }
}
