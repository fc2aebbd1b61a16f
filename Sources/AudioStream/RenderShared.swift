package import AudioSinks
package import Synchronization
import System

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
    package let clock = PlaybackClock()
    /// Wake the control thread once `playedPosition` reaches this; `.max` = none (control sets, render clears).
    package let notifyThreshold = Atomic<UInt64>(.max)

    /// Stops that faded out, and stops that had to cut the sound at once (render).
    package let fadedStops = Atomic<Int>(0)
    package let cutStops = Atomic<Int>(0)

    /// Underruns recovered (render).
    package let underruns = Atomic<Int>(0)
    /// Device failures, and the code and (a backend's own code for) the operation of the last one (render).
    package let deviceFailures = Atomic<Int>(0)
    package let lastFailureCode = Atomic<Int32>(0)
    package let lastFailureOperation = Atomic<UInt8>(0)
    /// The serial of the last device or stream that failed, so the synth thread opens another; 0
    /// when none (render; the synth thread clears it).
    package let brokenSerial = Atomic<UInt64>(0)

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
    package func playedPosition(at now: UInt64) -> UInt64 {
        let clock = clock.read()
        let measured = playedPosition.load(ordering: .acquiring)
        guard clock.rate > 0, now > clock.time else { return max(measured, clock.position) }
        let advanced = clock.position + (now - clock.time) * clock.rate / 1_000_000_000
        return max(measured, min(advanced, clock.ceiling))
    }

    /// Nanoseconds from `now` until `position` will be heard if the device keeps playing; nil when
    /// it is not running.
    package func nanoseconds(untilPlayed position: UInt64, at now: UInt64) -> UInt64? {
        let clock = clock.read()
        guard clock.rate > 0 else { return nil }
        guard position > clock.position else { return 0 }
        // Rounded up, so that at `due` the position has surely been reached.
        let due = clock.time + ((position - clock.position) * 1_000_000_000 + clock.rate - 1) / clock.rate
        return due > now ? due - now : 0
    }
}

// The control and synth threads' requests, each one store (and a wake the caller sends).
extension RenderShared {
    /// Begins `job` at ring position `start`: unless `continuing`, samples before it are stale.
    /// The order is the render side's contract (see ``takeStreamRequests``): discardBefore, then the job.
    package func announceJob(_ job: UInt64, at start: UInt64, continuing: Bool) {
        if !continuing { discardBefore.store(start, ordering: .releasing) }
        currentJob.store(job, ordering: .releasing)
    }

    /// Asks the render side to stop playing `job` now.
    package func requestStop(job: UInt64) {
        stopRequest.store(job, ordering: .releasing)
    }

    /// Keeps the render side from handing over samples at or past `position`; nil lifts it.
    package func limit(to position: UInt64?) {
        playbackLimit.store(position ?? .max, ordering: .releasing)
    }

    /// Asks for one wake of the control thread once the position heard reaches `position`.
    package func notify(whenPlayedReaches position: UInt64) {
        notifyThreshold.store(position, ordering: .releasing)
    }

    /// The counters a sink reports, without its words for the last failure.
    package var counters: SinkHealth {
        var health = SinkHealth()
        health.underruns = underruns.load(ordering: .relaxed)
        health.fadedStops = fadedStops.load(ordering: .relaxed)
        health.cutStops = cutStops.load(ordering: .relaxed)
        health.failures = deviceFailures.load(ordering: .acquiring)
        return health
    }
}

// The render side's reports, checked real-time like its callers.
extension RenderShared {
    /// Wakes the control thread.
    @_noLocks
    package func wakeControl() {
        RealTime.wake(controlWakeFD)
    }

    /// Wakes the render side's own wait.
    @_noLocks
    package func wakeRender() {
        RealTime.wake(renderWakeFD)
    }

    /// Publishes `played`, the position heard, with the clock's reading for `time` (monotonic ns):
    /// advancing at `rate` frames a second (0: stopped) but never past `ceiling`, the frames handed
    /// over. Wakes the control thread once at its threshold, or when the clock starts to run while
    /// it waits for one (it could not time its next event from a stopped clock).
    @_noLocks
    package func publishPlayed(_ played: UInt64, at time: UInt64, ceiling: UInt64, rate: UInt64) {
        playedPosition.store(played, ordering: .releasing)
        let wasRunning = clock.publish(position: played, time: time, ceiling: ceiling, rate: rate)
        let threshold = notifyThreshold.load(ordering: .acquiring)
        if played >= threshold {
            // Exactly one wake per threshold: the control thread may be replacing it concurrently.
            let (exchanged, _) = notifyThreshold.compareExchange(
                expected: threshold, desired: .max, ordering: .acquiringAndReleasing)
            if exchanged { wakeControl() }
        } else if rate > 0 && !wasRunning {
            // The control thread could not time its next event from a stopped clock: it can now.
            if threshold != .max { wakeControl() }
        }
    }

    /// Counts a failure of the handle with `serial`, with its code and operation, and wakes the
    /// control thread to log it.
    @_noLocks
    package func reportFailure(code: Int32, operation: UInt8, serial: UInt64) {
        lastFailureCode.store(code, ordering: .relaxed)
        lastFailureOperation.store(operation, ordering: .relaxed)
        _ = deviceFailures.add(1, ordering: .releasing)
        brokenSerial.store(serial, ordering: .releasing)
        wakeControl()
    }
}
