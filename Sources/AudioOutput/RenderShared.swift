import Synchronization

/// The atomics the render thread shares with the synth and control threads, and the two wake fds.
///
/// Each field has one writer; the comment on it names that writer. Positions are absolute ring
/// positions (see ``SampleRing``), job ids grow by one per message and start at 1.
final class RenderShared: Sendable {
    /// Cleared by `shutdown()` (control) to end the render loop.
    let running = Atomic<Bool>(true)

    /// The job the producer is writing (synth, in `beginJob`).
    let currentJob = Atomic<UInt64>(0)
    /// The write position when `currentJob` began; older samples are stale (synth).
    let discardBefore = Atomic<UInt64>(0)
    /// The render thread never hands the device samples at or past this position (control; synth resets).
    let playbackLimit = Atomic<UInt64>(.max)

    /// The job whose playback must stop now (control).
    let stopRequest = Atomic<UInt64>(0)

    /// The position heard so far (render).
    let playedPosition = Atomic<UInt64>(0)
    /// The device clock (render).
    let clock = PlaybackClock()
    /// Wake the control thread once `playedPosition` reaches this; `.max` = none (control sets, render clears).
    let notifyThreshold = Atomic<UInt64>(.max)

    /// A device (or "no device") for the render thread to adopt (synth).
    let installMailbox = DeviceMailbox()
    /// A device the render thread stopped using, for the synth thread to close (render).
    let retiredMailbox = DeviceMailbox()
    /// Counts the devices (or "none") the render thread adopted from `installMailbox`; bumped after
    /// the previous one is in `retiredMailbox` (render).
    let adoptions = Atomic<UInt64>(0)
    /// The device the render thread held when it exited, closed by `shutdown()` (render).
    let exitMailbox = DeviceMailbox()
    /// The serial of the last device that failed (see ``PCMDevice/serial``), so the synth thread
    /// reopens it; 0 when none (render).
    let brokenDevice = Atomic<UInt64>(0)

    /// Stops that faded out, and stops that had to cut the sound at once (render).
    let fadedStops = Atomic<Int>(0)
    let cutStops = Atomic<Int>(0)

    /// Underruns recovered with `snd_pcm_recover` (render).
    let underruns = Atomic<Int>(0)
    /// Device failures, and the code and operation of the last one (render).
    let deviceFailures = Atomic<Int>(0)
    let lastFailureCode = Atomic<Int32>(0)
    let lastFailureOperation = Atomic<UInt8>(0)

    /// The render thread's own eventfd, written by the producer and the control thread to wake it.
    let renderWakeFD: Int32
    /// The caller's eventfd, written by the render thread to wake the control thread.
    let controlWakeFD: Int32

    init(renderWakeFD: Int32, controlWakeFD: Int32) {
        self.renderWakeFD = renderWakeFD
        self.controlWakeFD = controlWakeFD
    }
}
