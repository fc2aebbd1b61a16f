public import AudioSinks
package import System
import Synchronization

/// A connection to a sound server that plays a ``StreamSink``'s ring: the part each backend
/// (PulseAudio, PipeWire) writes. Its render side answers the server's requests for frames with
/// ``takeStreamRequests`` and ``fillFromStream`` and reports what is still queued with
/// ``publishStreamPosition``; while it has no working stream it discards the ring's frames as if
/// heard, so positions (and events) still advance.
///
/// The synth thread calls ``connect()`` and ``disconnect()``; the control thread calls ``start()``
/// (once) and ``shutdown(until:)``; ``wakeRenderSide()`` may be called from any of them.
package protocol StreamConnection: AnyObject, Sendable {
    /// Connects to the server and sets up a playing (or ready, corked) stream unless one works;
    /// the error, in words, when none can.
    func connect() throws(StreamError)
    /// Lets the server go until the next ``connect()``; whether a stream was open.
    func disconnect() -> Bool
    /// Starts the render side's thread if the backend has one; a notice for the log, or nil.
    func start() -> String?
    /// Tells the render side that the requests in `RenderShared` changed.
    func wakeRenderSide()
    /// Ends the render side and closes the stream, waiting until `deadline`; false if it is held
    /// by a server call that does not return.
    func shutdown(until deadline: UInt64) -> Bool
    /// What went wrong last while playing, in words; nil if nothing did.
    var lastFailure: String? { get }
}

/// Why a sound server could not play.
public struct StreamError: Error, CustomStringConvertible, Sendable {
    public let description: String

    package init(_ description: String) {
        self.description = description
    }
}

/// Plays Int16 mono samples through a backend's stream (see ``StreamConnection``).
///
/// The synth thread writes samples into a ring; the backend's render side takes them when the
/// server asks for frames. Threads and their methods are those of ``SampleSink``.
///
/// The sound server backends (PulseOutput, PipeWireOutput: ``SoundServerBackend``) are each a
/// ``StreamConnection`` on this C-free core, and ALSAOutput's sink plays from the same pieces with
/// a render loop of its own: the ``SampleRing``, the atomics of ``RenderShared`` (the synth and
/// control threads' requests as its methods: `announceJob`, `requestStop`, `limit`, and the
/// render side's `publishPlayed`), the device clock (``PlaybackClock``), the ``Handoff`` of
/// devices and streams, the render side's requests, fade and position (StreamRender.swift), and
/// the ``RenderThread``. No backend imports another's C library.
public final class StreamSink: SampleSink {
    package let ring: SampleRing
    package let shared: RenderShared
    private let connection: any StreamConnection
    private let controlWake: EventFD
    private let renderWake: EventFD
    public let sampleRate: Int
    /// How long the producer waits at most while the ring is full (a new job or the shutdown ends
    /// the wait at once).
    private let fullRingWait: UInt64
    /// Ends the producer's wait for room.
    private let roomWake: EventFD
    /// A write wakes the render side only while the ring held fewer frames of the current job than
    /// this before it (`.max`: always).
    private let quietAbove: Int

    /// A sink at `sampleRate` whose ring holds `ringCapacity` frames (a power of two), waking the
    /// control thread through `controlWake`; `connection` makes the backend's side from the ring,
    /// the shared requests and the render side's own eventfd. Connects to nothing yet.
    ///
    /// `fullRingWait`: how long the synth thread waits for room in a full ring before it looks
    /// again. The ring holds seconds, so a long wait loses nothing, and each look is a wakeup.
    ///
    /// `quietAbove` (frames; nil: never): writes need not wake the render side while the ring holds
    /// at least that many frames of the job, for a backend whose render side the server wakes
    /// whenever it handed over less than it had (the ring holding more than the server's buffer).
    package init(
        sampleRate: Int, ringCapacity: Int, fullRingWait: UInt64, quietAbove: Int? = nil, controlWake: EventFD,
        connection: (SampleRing, RenderShared, EventFD) throws(StreamError) -> any StreamConnection
    ) throws(StreamError) {
        do {
            renderWake = try EventFD()
            roomWake = try EventFD()
        } catch {
            throw StreamError("cannot create an eventfd (\(error))")
        }
        self.fullRingWait = fullRingWait
        self.quietAbove = quietAbove ?? .max
        self.controlWake = controlWake
        self.sampleRate = sampleRate
        ring = SampleRing(capacity: ringCapacity)
        shared = RenderShared(renderWakeFD: renderWake.rawValue, controlWakeFD: controlWake.rawValue)
        self.connection = try connection(ring, shared, renderWake)
    }

    deinit {
        _ = shutdown(until: .max)
    }

    public func start() -> String? {
        connection.start()
    }

    public func beginJob(_ job: UInt64, continuing: Bool) throws -> UInt64 {
        precondition(job > shared.currentJob.load(ordering: .relaxed), "StreamSink job ids must grow")
        var failure: StreamError? = nil
        do throws(StreamError) {
            try connection.connect()
        } catch {
            failure = error
        }
        let start = ring.writePosition
        shared.announceJob(job, at: start, continuing: continuing)
        connection.wakeRenderSide()
        if let failure { throw failure }
        return start
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>, isCancelled: () -> Bool) -> Bool {
        ring.write(all: samples, isCancelled: isCancelled, waitForRoom: waitForRoom) { start in
            // Frames of earlier jobs, which the render side is about to discard, do not count.
            let read = max(ring.readPosition, shared.discardBefore.load(ordering: .acquiring))
            if start < read || start - read < UInt64(quietAbove) { connection.wakeRenderSide() }
        }
    }

    /// Waits until `fullRingWait` passes, a job comes (``endWaitForRoom()``) or the shutdown.
    private func waitForRoom() {
        _ = poll([roomWake.rawValue], timeout: fullRingWait)
        roomWake.reset()
    }

    public var writePosition: UInt64 {
        ring.writePosition
    }

    public func prepare() throws {
        try connection.connect()
    }

    public func release() -> Bool {
        connection.disconnect()
    }

    public func takeNotice() -> String? {
        nil
    }

    public func playedPosition(at now: UInt64) -> UInt64 {
        shared.playedPosition(at: now)
    }

    public func nanoseconds(untilPlayed position: UInt64, at now: UInt64) -> UInt64? {
        shared.nanoseconds(untilPlayed: position, at: now)
    }

    public func notify(whenPlayedReaches position: UInt64) {
        shared.notify(whenPlayedReaches: position)
    }

    public func stop(job: UInt64) {
        shared.requestStop(job: job)
        connection.wakeRenderSide()
    }

    /// (Not at a STOP: the synth thread woken then competes with the control thread for the
    /// cores just as it reports the STOP, 0.8 ms later on two cores; the next job wakes it.)
    public func endWaitForRoom() {
        roomWake.signal()
    }

    public func limitPlayback(to position: UInt64?) {
        shared.limit(to: position)
        connection.wakeRenderSide()
    }

    public var health: SinkHealth {
        var health = shared.counters
        health.lastFailure = health.failures > 0 ? connection.lastFailure : nil
        return health
    }

    public func shutdown(until deadline: UInt64) -> Bool {
        roomWake.signal()
        return connection.shutdown(until: deadline)
    }
}
