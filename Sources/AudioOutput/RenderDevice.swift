internal import CALSA
import Glibc
import Synchronization

// The render thread's side of the device: real-time, like RenderLoop.swift (see there).

/// Takes the device the synth thread installed, if any, handing the old one back to be closed.
@_noLocks
func adoptInstalledDevice(_ state: inout RenderState, shared: RenderShared) {
    guard !shared.installMailbox.isEmpty() else { return }
    // Only we fill the retired mailbox; if it is still full, keep the current device until the synth
    // thread has closed the previous one (the next `beginJob`).
    // (Nested ifs: the right side of `&&` is a closure, which would retain `shared`.)
    if state.device != nil {
        if !shared.retiredMailbox.isEmpty() { return }
    }
    let content = shared.installMailbox.take()
    if case .empty = content { return }
    if let old = state.device { shared.retiredMailbox.put(.device(old)) }
    _ = shared.adoptions.add(1, ordering: .releasing)
    state.broken = false
    guard case .device(let box) = content else {
        state.device = nil
        state.deviceSerial = 0
        state.pcm = nil
        state.periodBuffer = nil
        state.periodFrames = 0
        state.history = nil
        state.fadeFrames = 0
        return
    }
    state.device = box
    state.deviceSerial = box.pointee.serial
    state.pcm = box.pointee.handle
    state.periodBuffer = box.pointee.periodBuffer
    state.periodFrames = box.pointee.periodFrames
    state.history = box.pointee.history
    state.sampleRate = box.pointee.sampleRate
    // 4 ms: long enough that the cut has no click, short enough to feel instant.
    let fade = box.pointee.sampleRate / 250
    state.fadeFrames = fade < box.pointee.periodFrames ? fade : box.pointee.periodFrames
    state.rewindWorks = 0
    let milliseconds = box.pointee.periodFrames * 1000 / (box.pointee.sampleRate > 0 ? box.pointee.sampleRate : 1)
    state.periodMilliseconds = Int32(milliseconds > 0 ? milliseconds : 1)
}

/// Stops using the device until the synth thread installs another, and records why for the log.
@_noLocks
func markBroken(_ state: inout RenderState, shared: RenderShared, code: Int32, operation: RenderOperation) {
    state.broken = true
    if let pcm = state.pcm {
        // snd_pcm_drop: best effort, so a failed device does not keep playing stale frames.
        _ = _unsafePerformance { snd_pcm_drop(pcm) }
    }
    shared.lastFailureCode.store(code, ordering: .relaxed)
    shared.lastFailureOperation.store(operation.code, ordering: .relaxed)
    _ = shared.deviceFailures.add(1, ordering: .releasing)
    shared.brokenDevice.store(state.deviceSerial, ordering: .releasing)
    wake(shared.controlWakeFD)
}

/// Frames the device still holds (`snd_pcm_delay`), 0 without a device or on error.
@_noLocks
func queuedFrames(_ state: RenderState) -> Int {
    guard state.usable, let pcm = state.pcm else { return 0 }
    var delay: snd_pcm_sframes_t = 0
    // snd_pcm_delay: asks the device how many frames are not yet heard; no allocation.
    let result = _unsafePerformance { snd_pcm_delay(pcm, &delay) }
    return result < 0 || delay < 0 ? 0 : delay
}
