/// Where the synth thread's samples go (a device, a sound file, memory), and how far they have
/// been heard.
///
/// Positions are absolute sample positions: the first sample ever written is 0. Three threads use
/// a sink, each through its own members:
/// - the synth thread (the producer): ``beginJob(_:continuing:)``, ``write(_:isCancelled:)``,
///   ``writePosition``, ``prepare()``, ``release()``, ``takeNotice()``;
/// - the control thread: ``playedPosition(at:)``, ``nanoseconds(untilPlayed:at:)``,
///   ``notify(whenPlayedReaches:)``, ``stop(job:)``, ``limitPlayback(to:)``, ``health``;
/// - whatever plays it (a device's render thread), inside the sink.
///
/// A sink wakes the control thread through the wake descriptor it was made with, when a
/// ``notify(whenPlayedReaches:)`` threshold is reached or its health changes.
public protocol SampleSink: AnyObject, Sendable {
    /// Frames per second; every sample is one mono 16-bit frame.
    var sampleRate: Int { get }

    /// Starts the sink's own threads; returns a notice for the log (such as a real-time priority
    /// that was refused), or nil.
    func start() -> String?

    /// Prepares playback of `job` (ids grow from 1) and returns its start position. Unless
    /// `continuing`, samples written for earlier jobs and not yet heard are dropped; a continuing
    /// job is heard right after them. If the output cannot be opened the job still begins, its
    /// samples are dropped as if heard (so its events complete), and the error is thrown for the
    /// caller to log.
    func beginJob(_ job: UInt64, continuing: Bool) throws -> UInt64

    /// Writes all of `samples`, waiting while the output has no room; false, with part of them
    /// written, as soon as `isCancelled` returns true while waiting.
    func write(_ samples: UnsafeBufferPointer<Int16>, isCancelled: () -> Bool) -> Bool

    /// The position just past the last sample written.
    var writePosition: UInt64 { get }

    /// Opens the output ahead of the first job, so that it does not wait for it.
    func prepare() throws

    /// Closes the output until the next job (an idle module holds no device); whether it was open.
    func release() -> Bool

    /// What to tell the user about the output last opened, once; nil if nothing.
    func takeNotice() -> String?

    /// The position heard at `now` (``System/MonotonicClock`` nanoseconds).
    func playedPosition(at now: UInt64) -> UInt64

    /// Nanoseconds from `now` until `position` will be heard if the output keeps playing; nil when
    /// no clock runs (a ``notify(whenPlayedReaches:)`` wake comes then).
    func nanoseconds(untilPlayed position: UInt64, at now: UInt64) -> UInt64?

    /// Wakes the control thread once when the position heard reaches `position`; replaces any
    /// earlier request, `.max` cancels. Read ``playedPosition(at:)`` again after calling it: if it
    /// had already reached `position`, no wake may come.
    func notify(whenPlayedReaches position: UInt64)

    /// Silences `job` now: what is queued of it is dropped (faded out where the output allows), and
    /// so is whatever is still written for it, until a later job begins.
    func stop(job: UInt64)

    /// Keeps anything at or past `position` from being heard (a pause); nil lifts the limit.
    func limitPlayback(to position: UInt64?)

    /// Ends a ``write(_:isCancelled:)`` that waits for room, at once: it looks at `isCancelled`
    /// again (any thread; a new job for the synth thread to take up).
    func endWaitForRoom()

    /// Counters of what went wrong or was noteworthy while playing.
    var health: SinkHealth { get }

    /// Stops the sink's threads and closes the output, waiting for them until `deadline`; false
    /// if one is still held by a call that does not return (nothing it uses is freed then).
    func shutdown(until deadline: UInt64) -> Bool
}

extension SampleSink {
    /// A sink whose writes wait for room only briefly has nothing to end.
    public func endWaitForRoom() {}
}

/// What happened to a sink's output while it played, counted since it was made.
public struct SinkHealth: Equatable, Sendable {
    public var underruns = 0
    public var fadedStops = 0
    public var cutStops = 0
    public var failures = 0
    /// The last failure, in words, for the log.
    public var lastFailure: String?

    public init() {}
}
