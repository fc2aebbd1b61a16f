package import Synchronization

/// The atomics the render thread shares with the synth and control threads, and the two wake fds.
///
/// Each field has one writer; the comment on it names that writer. Positions are absolute ring
/// positions (see ``SampleRing``), job ids grow by one per message and start at 1.
package final class RenderShared: Sendable {
    /// Cleared by `shutdown()` (control) to end the render loop.
    package let running = Atomic<Bool>(true)

    /// The job the producer is writing (synth, in `beginJob`).
    package let currentJob = Atomic<UInt64>(0)
    /// The write position when `currentJob` began; older samples are stale (synth).
    package let discardBefore = Atomic<UInt64>(0)
    /// The render thread never hands the device samples at or past this position (control; synth resets).
    package let playbackLimit = Atomic<UInt64>(.max)

    /// The job whose playback must stop now (control).
    package let stopRequest = Atomic<UInt64>(0)

    /// The position heard so far (render).
    package let playedPosition = Atomic<UInt64>(0)
    /// The device clock (render).
    let clock = PlaybackClock()
    /// Wake the control thread once `playedPosition` reaches this; `.max` = none (control sets, render clears).
    package let notifyThreshold = Atomic<UInt64>(.max)

    /// A device (or "no device") for the render thread to adopt (synth).
    let installMailbox = DeviceMailbox()
    /// A device the render thread stopped using, for the synth thread to close (render).
    let retiredMailbox = DeviceMailbox()
    /// Counts the devices (or "none") the render thread adopted from `installMailbox`; bumped after
    /// the previous one is in `retiredMailbox` (render).
    package let adoptions = Atomic<UInt64>(0)
    /// The device the render thread held when it exited, closed by `shutdown()` (render).
    let exitMailbox = DeviceMailbox()
    /// The serial of the last device that failed (see ``PCMDevice/serial``), so the synth thread
    /// reopens it; 0 when none (render).
    package let brokenDevice = Atomic<UInt64>(0)

    /// Stops that faded out, and stops that had to cut the sound at once (render).
    package let fadedStops = Atomic<Int>(0)
    package let cutStops = Atomic<Int>(0)

    /// Underruns recovered with `snd_pcm_recover` (render).
    package let underruns = Atomic<Int>(0)
    /// Device failures, and the code and operation of the last one (render).
    package let deviceFailures = Atomic<Int>(0)
    package let lastFailureCode = Atomic<Int32>(0)
    package let lastFailureOperation = Atomic<UInt8>(0)

    /// The render thread's own eventfd, written by the producer and the control thread to wake it.
    package let renderWakeFD: Int32
    /// The caller's eventfd, written by the render thread to wake the control thread.
    package let controlWakeFD: Int32

    package init(renderWakeFD: Int32, controlWakeFD: Int32) {
        self.renderWakeFD = renderWakeFD
        self.controlWakeFD = controlWakeFD
    }
}

extension RenderShared {
    /// The position heard at `now` (``System/MonotonicClock`` nanoseconds): the render side's last
    /// reading, advanced at the sample rate while the device runs, never past the frames handed to it.
    func playedPosition(at now: UInt64) -> UInt64 {
        let clock = clock.read()
        let measured = playedPosition.load(ordering: .acquiring)
        guard clock.rate > 0, now > clock.time else { return max(measured, clock.position) }
        let advanced = clock.position + (now - clock.time) * clock.rate / 1_000_000_000
        return max(measured, min(advanced, clock.ceiling))
    }

    /// Nanoseconds from `now` until `position` will be heard if the device keeps playing; nil when
    /// it is not running.
    func nanoseconds(untilPlayed position: UInt64, at now: UInt64) -> UInt64? {
        let clock = clock.read()
        guard clock.rate > 0 else { return nil }
        guard position > clock.position else { return 0 }
        // Rounded up, so that at `due` the position has surely been reached.
        let due = clock.time + ((position - clock.position) * 1_000_000_000 + clock.rate - 1) / clock.rate
        return due > now ? due - now : 0
    }
}
