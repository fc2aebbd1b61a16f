internal import CALSA

// alsa-lib's calls on the render thread: the ALSA backend's whole real-time audit surface (CI
// allows `_unsafePerformance` only in `+RealTime.swift` files). Each wrapper says why the call is
// acceptable on a real-time thread: none allocates or takes a lock another thread may hold long.

/// The PCM calls the render loop makes (RenderLoop.swift, RenderStop.swift, RenderDevice.swift).
enum RealTimePCM {
    /// The device states the loop tells apart.
    enum State {
        case prepared, running, xrun, other

        // (Not `==`: the Equatable witness fails the `@_noLocks` check.)
        var isRunning: Bool {
            @_noLocks get { if case .running = self { true } else { false } }
        }
        var isPrepared: Bool {
            @_noLocks get { if case .prepared = self { true } else { false } }
        }
        var isXrun: Bool {
            @_noLocks get { if case .xrun = self { true } else { false } }
        }
    }

    /// Writes `frames` frames; the frames taken or a negative error code.
    @_noLocks
    static func write(_ pcm: OpaquePointer, _ buffer: UnsafeMutablePointer<Int16>, frames: Int) -> Int {
        // snd_pcm_writei: the device write. It blocks until the device has room, which paces this thread.
        _unsafePerformance { snd_pcm_writei(pcm, buffer, snd_pcm_uframes_t(frames)) }
    }

    /// Re-prepares the device after an underrun (`code` -EPIPE) or a resume (-ESTRPIPE).
    @_noLocks
    static func recover(_ pcm: OpaquePointer, from code: Int32) -> Int32 {
        // snd_pcm_recover: re-prepares the device; no allocation.
        _unsafePerformance { snd_pcm_recover(pcm, code, 1) }
    }

    @_noLocks
    static func state(_ pcm: OpaquePointer) -> State {
        // snd_pcm_state: reads the device state; no allocation.
        let state = _unsafePerformance { snd_pcm_state(pcm) }.rawValue
        if state == SND_PCM_STATE_RUNNING.rawValue { return .running }
        if state == SND_PCM_STATE_PREPARED.rawValue { return .prepared }
        if state == SND_PCM_STATE_XRUN.rawValue { return .xrun }
        return .other
    }

    /// Plays out what the device holds, blocking at most one buffer.
    @_noLocks
    static func drain(_ pcm: OpaquePointer) -> Int32 {
        // snd_pcm_drain: waits for the queued frames; no allocation.
        _unsafePerformance { snd_pcm_drain(pcm) }
    }

    /// Readies the device for the next sound.
    @_noLocks
    static func prepare(_ pcm: OpaquePointer) -> Int32 {
        // snd_pcm_prepare: resets the device's pointers; no allocation.
        _unsafePerformance { snd_pcm_prepare(pcm) }
    }

    /// Starts a device holding fewer frames than its start threshold.
    @_noLocks
    static func start(_ pcm: OpaquePointer) -> Int32 {
        // snd_pcm_start: one device call; no allocation.
        _unsafePerformance { snd_pcm_start(pcm) }
    }

    /// Silences the device now, dropping what it holds.
    @_noLocks
    static func drop(_ pcm: OpaquePointer) -> Int32 {
        // snd_pcm_drop: the device call that silences it now; no allocation.
        _unsafePerformance { snd_pcm_drop(pcm) }
    }

    /// Takes back as many queued frames as the device allows; how many it took (or an error).
    @_noLocks
    static func rewindAll(_ pcm: OpaquePointer) -> Int {
        // snd_pcm_rewindable and snd_pcm_rewind: pointer arithmetic in the device; no allocation.
        let rewindable = _unsafePerformance { snd_pcm_rewindable(pcm) }
        guard rewindable > 0 else { return 0 }
        return _unsafePerformance { snd_pcm_rewind(pcm, snd_pcm_uframes_t(rewindable)) }
    }

    /// Moves the device's pointer forward by `frames` again (undoing a rewind its server ignored).
    @_noLocks
    static func forward(_ pcm: OpaquePointer, frames: Int) {
        // snd_pcm_forward: pointer arithmetic in the device.
        _ = _unsafePerformance { snd_pcm_forward(pcm, snd_pcm_uframes_t(frames)) }
    }

    /// Frames the device still holds, not yet heard; nil on error.
    @_noLocks
    static func delay(_ pcm: OpaquePointer) -> Int? {
        var delay: snd_pcm_sframes_t = 0
        // snd_pcm_delay: asks the device how many frames are not yet heard; no allocation.
        let result = _unsafePerformance { snd_pcm_delay(pcm, &delay) }
        return result < 0 ? nil : delay
    }
}
