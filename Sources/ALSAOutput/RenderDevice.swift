import AudioStream
import Synchronization

// The render thread's side of the device: real-time, like RenderLoop.swift (see there).

/// Takes the device the synth thread installed, if any, handing the old one back to be closed.
@_noLocks
func adoptInstalledDevice(_ state: inout RenderState, handoff: HandoffSlots) {
    var current: UnsafeMutableRawPointer? = nil
    if let device = state.device { current = UnsafeMutableRawPointer(device) }
    let content = handoff.takeInstalled(holding: current)
    if case .empty = content { return }
    handoff.finishAdoption(retiring: current)
    state.broken = false
    guard case .handle(let raw) = content else {
        state.device = nil
        state.deviceSerial = 0
        state.pcm = nil
        state.periodBuffer = nil
        state.periodFrames = 0
        state.history = nil
        state.fadeFrames = 0
        return
    }
    let box = raw.assumingMemoryBound(to: PCMDevice.self)
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
        // Best effort, so a failed device does not keep playing stale frames.
        _ = RealTimePCM.drop(pcm)
    }
    shared.reportFailure(code: code, operation: operation.code, serial: state.deviceSerial)
}

/// Frames the device still holds (`snd_pcm_delay`), 0 without a device or on error.
@_noLocks
func queuedFrames(_ state: RenderState) -> Int {
    guard state.usable, let pcm = state.pcm, let delay = RealTimePCM.delay(pcm) else { return 0 }
    return delay < 0 ? 0 : delay
}
