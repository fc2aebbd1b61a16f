import AudioStream
public import AudioSinks
public import System
import Synchronization

/// Plays Int16 mono samples through ALSA on its own real-time thread and reports what has been heard.
///
/// The ALSA backend (`AudioBackend alsa`): a device opened by name with alsa-lib, and a render
/// thread whose loop the compiler checks (`@_noLocks`, RenderLoop.swift). The thread writes 10 ms
/// periods into an 80 ms device buffer (`AudioPeriodMilliseconds`, `AudioBufferPeriods`) and
/// carries out a STOP between two writes, so a STOP waits at most one period; it fades out where
/// the device can take frames back and cuts at once where it cannot (`silence`, RenderStop.swift).
/// With `AudioBackend auto`, a device that is a sound server's plugin is played through that
/// server's own API instead (``SoundServerPlugin``). It publishes a device clock (frames written
/// less `snd_pcm_delay`, with its CLOCK_MONOTONIC time), so the position heard is known between
/// periods. After `AudioIdleSeconds` (5) without speech the device is closed (``release()``):
/// no sound server stream keeps the card awake and the idle module uses no CPU; reopening costs a
/// few milliseconds.
///
/// Three threads use it, each through its own methods:
/// - the synth thread (the producer): ``beginJob(_:)``, ``write(_:isCancelled:)``, ``writePosition``;
/// - the control thread: ``stop(job:)``, ``playedPosition``, ``notify(whenPlayedReaches:)``,
///   ``limitPlayback(to:)``, ``setDevice(_:)`` and the failure counters;
/// - the render thread, started by ``start()``, which owns writing to the device (`RenderLoop.swift`).
///
/// Positions are absolute sample positions in the ring (see ``SampleRing``). The render thread wakes
/// the control thread by writing 1 to `controlWakeFD`; wakes may coalesce or come spuriously, so the
/// control thread re-reads the state it cares about after each one.
public final class ALSASink: SampleSink {
    let ring: SampleRing
    let shared: RenderShared
    private let handoff = Handoff<PCMDevice>()
    private let producer: Locked<ProducerState>
    private let renderThread: RenderThread
    /// The control thread's wake, kept alive for the render thread, which signals its descriptor.
    private let controlWake: EventFD
    /// The render thread's own wake.
    private let renderWake: EventFD
    /// Half a period in nanoseconds: how long the producer sleeps while the ring is full.
    private let fullRingNap: UInt64

    /// What the synth thread (and `setDevice` from the control thread) keep about the device.
    private struct ProducerState {
        var configuration: AudioConfiguration
        /// A configuration from `setDevice`, applied at the next `beginJob`.
        var pending: AudioConfiguration?
        /// The serial of the device last installed for the render thread; 0 when none works.
        var installed: UInt64 = 0
        /// The serial the next device opened gets.
        var nextSerial: UInt64 = 1
        /// What to tell the user about the device last opened (it needed a converter), once.
        var notice: String?
    }

    /// Creates the ring and the render thread's eventfd; opens no device until the first job.
    ///
    /// - Parameter controlWake: the eventfd the control thread polls.
    public init(configuration: AudioConfiguration, controlWake: EventFD) throws(Errno) {
        self.renderWake = try EventFD()
        self.controlWake = controlWake
        self.ring = SampleRing(capacity: configuration.ringCapacity)
        self.shared = RenderShared(renderWakeFD: renderWake.rawValue, controlWakeFD: controlWake.rawValue)
        self.producer = Locked(ProducerState(configuration: configuration))
        self.renderThread = RenderThread(shared: shared)
        let rate = configuration.sampleRate > 0 ? configuration.sampleRate : 22050
        self.fullRingNap = UInt64(max(configuration.periodFrames, 1) * 500_000_000 / rate)
    }

    deinit {
        shutdown()
    }

    public var sampleRate: Int { configuration.sampleRate }

    // MARK: Lifecycle

    /// Starts the render thread; calling it again does nothing. Returns why the thread could not
    /// get real-time priority (`SCHED_FIFO`), for the caller to log once, or nil when it got it.
    /// Without it the thread still works, at normal priority, and a busy machine may cause underruns.
    @discardableResult
    public func start() -> String? {
        let (ring, shared, handoff) = (ring, shared, handoff)
        return renderThread.start {
            var state = RenderState()
            runRenderLoop(&state, ring: ring, shared: shared, handoff: handoff.slots)
            _ = handoff.replace(.exit, with: state.device.map { .handle($0) } ?? .empty)
        }
    }

    /// Stops and joins the render thread and closes every device; the output cannot start again.
    ///
    /// Waits for the thread, and then for the devices' closing, until `deadline` (monotonic
    /// nanoseconds). If either is still blocked on a device then (a sound server that hangs),
    /// returns false: the device is that thread's until the process ends.
    @discardableResult
    public func shutdown(until deadline: UInt64 = .max) -> Bool {
        guard renderThread.stop(until: deadline) else { return false }
        producer.withLock { $0.installed = 0 }
        return handoff.closeAll(until: deadline)
    }

    // MARK: Producer side (synth thread)

    /// Prepares playback of `job` and returns its start position; synth thread only.
    ///
    /// Opens the device here if none works yet, the last one failed, or ``setDevice(_:)`` changed it.
    /// Unless `continuing`, samples written before this call and not yet played are dropped. A ``limitPlayback(to:)``
    /// stays: the control thread lifts it before it hands over the next job, so a PAUSE that arrives
    /// before this call is not lost. If the device cannot be opened the job still begins, its samples
    /// are discarded as if played (so its events complete), and the error is thrown for the caller
    /// to log. Job ids must grow from 1.
    public func beginJob(_ job: UInt64, continuing: Bool = false) throws -> UInt64 {
        precondition(job > shared.currentJob.load(ordering: .relaxed), "ALSASink job ids must grow")
        let failure = ensureDevice()

        let start = ring.writePosition
        shared.announceJob(job, at: start, continuing: continuing)
        shared.wakeRender()
        if let failure { throw failure }
        return start
    }

    /// What the synth thread should log about the device it opened last (a converter it needed), once.
    public func takeNotice() -> String? {
        producer.withLock { state in
            defer { state.notice = nil }
            return state.notice
        }
    }

    /// Opens the device now, so that the first message does not wait for it; synth thread only.
    public func prepare() throws {
        if let failure = ensureDevice() { throw failure }
    }

    /// Opens and installs the device if none works yet, the last one failed, or the configuration
    /// changed; returns why opening failed, if it did.
    private func ensureDevice() -> ALSAError? {
        handoff.closeRetired()

        let (needsOpen, configuration) = producer.withLock { state in
            if let pending = state.pending {
                state.configuration = pending
                state.pending = nil
                return (true, pending)
            }
            let broken = state.installed != 0 && shared.brokenSerial.load(ordering: .acquiring) == state.installed
            return (state.installed == 0 || broken, state.configuration)
        }
        var failure: ALSAError? = nil
        if needsOpen {
            // Opened outside the lock: opening can take a while and setDevice must not wait for it.
            var installed = Handoff<PCMDevice>.Content.none
            var serial: UInt64 = 0
            do throws(ALSAError) {
                let box = UnsafeMutablePointer<PCMDevice>.allocate(capacity: 1)
                do throws(ALSAError) {
                    box.initialize(to: try PCMDevice(configuration: configuration))
                    serial = producer.withLock { state in
                        defer { state.nextSerial += 1 }
                        return state.nextSerial
                    }
                    box.pointee.serial = serial
                    if let converting = box.pointee.convertingName {
                        let notice =
                            "audio device '\(configuration.deviceName)' does not take \(configuration.sampleRate) Hz 16-bit mono; playing through alsa-lib's converter as '\(converting)'"
                        producer.withLock { $0.notice = notice }
                    }
                } catch {
                    box.deallocate()
                    throw error
                }
                installed = .handle(box)
            } catch {
                failure = error
            }
            shared.brokenSerial.store(0, ordering: .releasing)
            // A device installed earlier but never adopted is ours to close.
            handoff.install(installed)
            producer.withLock { $0.installed = serial }
        }
        return failure
    }

    /// Closes the device until the next job opens it again; synth thread only.
    ///
    /// For an idle module: an open PCM keeps a sound server's stream running (PulseAudio plays
    /// silence into an uncorked stream and keeps the card awake) or holds a hardware device. Returns
    /// false when no device was open. Waits at most 200 ms for the render thread to let go of it;
    /// if it does not (it is blocked on the device), the next job closes it.
    @discardableResult
    public func release() -> Bool {
        handoff.closeRetired()
        let wasOpen = producer.withLock { state in
            defer { state.installed = 0 }
            return state.installed != 0
        }
        guard wasOpen else { return false }
        handoff.withdraw { shared.wakeRender() }
        return true
    }

    /// Writes all of `samples` to the ring, waiting while it is full; synth thread only.
    ///
    /// Returns false, with part of the samples written, as soon as `isCancelled` returns true while
    /// waiting for room.
    public func write(_ samples: UnsafeBufferPointer<Int16>, isCancelled: () -> Bool) -> Bool {
        ring.write(
            all: samples, isCancelled: isCancelled,
            waitForRoom: { [fullRingNap] in MonotonicClock.sleep(nanoseconds: fullRingNap) }
        ) { _ in shared.wakeRender() }
    }

    /// The position just past the last sample written.
    public var writePosition: UInt64 {
        ring.writePosition
    }

    // MARK: Control side (control thread)

    /// Stops playback of `job` now; its remaining and future samples are dropped until a later job begins.
    ///
    /// The render thread fades out or drops the device's queue (`snd_pcm_drop`), then wakes the
    /// control thread.
    public func stop(job: UInt64) {
        shared.requestStop(job: job)
        shared.wakeRender()
    }

    /// The position heard so far: samples taken from the ring (discarded ones included) minus those still queued in the device.
    public var playedPosition: UInt64 {
        shared.playedPosition.load(ordering: .acquiring)
    }

    /// The position heard at `now` (``System/MonotonicClock`` nanoseconds).
    ///
    /// The render thread reads the device's position once per period; between readings, while the
    /// device runs, this advances it at the sample rate, never past the frames handed to the device.
    /// So events can be reported at their sample's time rather than at the next period boundary.
    public func playedPosition(at now: UInt64) -> UInt64 {
        shared.playedPosition(at: now)
    }

    /// Nanoseconds from `now` until `position` will be heard if the device keeps playing; nil when
    /// it is not running (a ``notify(whenPlayedReaches:)`` wake comes then). An estimate: check
    /// ``playedPosition(at:)`` when it is due, since the device may not have been given the frames yet.
    public func nanoseconds(untilPlayed position: UInt64, at now: UInt64) -> UInt64? {
        shared.nanoseconds(untilPlayed: position, at: now)
    }

    /// How many STOPs faded out, and how many cut the sound at once (a device that cannot rewind).
    public var stopCounts: (faded: Int, cut: Int) {
        (shared.fadedStops.load(ordering: .relaxed), shared.cutStops.load(ordering: .relaxed))
    }

    /// Asks the render thread to wake the control thread once when ``playedPosition`` reaches `position`.
    ///
    /// Replaces any earlier request; `UInt64.max` cancels. Re-read ``playedPosition`` after calling
    /// this: if it had already reached `position`, no wake may come.
    public func notify(whenPlayedReaches position: UInt64) {
        shared.notify(whenPlayedReaches: position)
    }

    /// Keeps the render thread from handing the device any sample at or past `position`; nil lifts it.
    ///
    /// Used to pause exactly at a mark. Samples already handed to the device still play. The
    /// limit outlives jobs: the control thread lifts it before it hands over the next one.
    public func limitPlayback(to position: UInt64?) {
        shared.limit(to: position)
        shared.wakeRender()
    }

    /// Switches to another device (or rate, or buffering) from the next ``beginJob(_:)`` on.
    ///
    /// The ring capacity cannot change; its value in `configuration` is ignored.
    public func setDevice(_ configuration: AudioConfiguration) {
        producer.withLock { $0.pending = configuration }
    }

    /// The configuration in use (or to be used from the next job on).
    public var configuration: AudioConfiguration {
        producer.withLock { $0.pending ?? $0.configuration }
    }

    public var health: SinkHealth {
        var health = SinkHealth()
        health.underruns = underrunCount
        (health.fadedStops, health.cutStops) = stopCounts
        health.failures = deviceFailureCount
        health.lastFailure = lastDeviceFailure.map { "\($0)" }
        return health
    }

    /// How many underruns the render thread recovered from.
    public var underrunCount: Int {
        shared.underruns.load(ordering: .relaxed)
    }

    /// How many times a device failed while playing (each failure makes the next job reopen it).
    public var deviceFailureCount: Int {
        shared.deviceFailures.load(ordering: .acquiring)
    }

    /// The last failure while playing, for the control thread to log; nil if none.
    public var lastDeviceFailure: ALSAError? {
        guard deviceFailureCount > 0 else { return nil }
        let code = shared.lastFailureCode.load(ordering: .relaxed)
        let operation = RenderOperation(rawValue: shared.lastFailureOperation.load(ordering: .relaxed)) ?? .none
        let device = producer.withLock { $0.configuration.deviceName }
        return ALSAError(operation: operation.phrase, device: device, code: code)
    }
}

