import Synchronization
import System

// The render side of a stream: real-time, checked by the compiler (`@_noLocks`): no locks, no
// allocation, no logging, no String, no Array. A sound server asks for frames; these
// functions answer from the sample ring, applying what the synth and control threads asked for
// through `RenderShared` (a new job, a STOP, a playback limit), and publish the position heard from
// the stream's own account of what it still holds. Exactly one thread at a time runs them for a
// stream: the backend's render thread, or the server library's data thread.

/// What a stream's render side keeps between requests: plain values and preallocated buffers.
package struct StreamRenderState: ~Copyable {
    /// The ring position just past the last frame handed to the server.
    package var handedOver: UInt64 = 0
    /// The ring position heard so far (never moves back).
    package var played: UInt64 = 0
    var jobs = JobTracking()

    /// The fade-out a STOP queued: `fadeCount` frames in `fade`, `fadeSent` of them handed over.
    let fade: UnsafeMutablePointer<Int16>
    let fadeFrames: Int
    var fadeCount = 0
    var fadeSent = 0
    /// The last frames handed over, to fade out from what the listener was hearing.
    let history: HistoryRing
    package let sampleRate: Int

    /// Allocates the fade buffer (about 4 ms) and a history of `historyFrames` frames.
    package init(sampleRate: Int, historyFrames: Int) {
        self.sampleRate = sampleRate > 0 ? sampleRate : 22050
        // 4 ms: long enough that the cut has no click, short enough to feel instant.
        fadeFrames = max(self.sampleRate / 250, 1)
        fade = .allocate(capacity: fadeFrames)
        fade.initialize(repeating: 0, count: fadeFrames)
        let frames = max(historyFrames, fadeFrames)
        history = HistoryRing(samples: .allocate(capacity: frames), frames: frames)
        history.samples.initialize(repeating: 0, count: frames)
    }

    deinit {
        fade.deallocate()
        history.samples.deallocate()
    }

    /// How many frames before the last one handed over a fade can start: what the history holds.
    package var historyFrames: UInt64 {
        @_noLocks get { UInt64(history.frames) }
    }

    /// Whether a fade-out is still to be handed over.
    package var isFading: Bool {
        @_noLocks get { fadeSent < fadeCount }
    }
}

/// What a stream's render side found when it looked at the shared requests.
package struct StreamRequests {
    /// A STOP arrived since the last look (its fade is queued when the sound could be continued).
    package var stopped = false
    /// Ring frames that can be handed over now (before the playback limit).
    package var available: UInt64 = 0
}

/// Whether a STOP came that ``takeStreamRequests`` has not taken in yet: a backend that must learn
/// where playback is before it can place the fade asks the server first.
@_noLocks
package func hasPendingStop(_ state: borrowing StreamRenderState, shared: RenderShared) -> Bool {
    shared.stopRequest.load(ordering: .acquiring) != state.jobs.handledStop
}

/// Which job the render side plays, and which stops it has carried out: every backend's render
/// side keeps one and reads the requests through ``lookAtRequests(_:handedOver:ring:shared:)``.
package struct JobTracking {
    var adoptedJob: UInt64 = 0
    /// Samples of jobs up to this one are discarded (they were stopped).
    var mutedThrough: UInt64 = 0
    var handledStop: UInt64 = 0

    package init() {}
}

/// The requests as the render side found them in one look.
package struct RingRequests {
    let limit: UInt64
    let written: UInt64
    let job: UInt64
    /// The first ring frame still to play (stale frames of an older job skipped).
    package var read: UInt64
    /// A STOP arrived since the last look: the job it stops.
    package let stop: UInt64?
    /// On a STOP, the end of the stopped job's frames in the ring that continue what was handed
    /// over (so a fade-out may be made of them); `read` when they do not continue it.
    package let ringEnd: UInt64
}

/// Looks at a new job, a STOP and the playback limit, taking in the new job; the backend then
/// silences for a STOP and calls ``settleRequests(_:_:ring:shared:)``.
@_noLocks
package func lookAtRequests(
    _ jobs: inout JobTracking, handedOver: UInt64, ring: SampleRing, shared: RenderShared
) -> RingRequests {
    // Load order matters. `beginJob` stores discardBefore, then currentJob, with release. Loading
    // the write position before the job means that if we see any sample of a new job we also see
    // the job, so muting below never eats new samples. The limit is the control thread's: it lifts
    // it only after the previous job ended, fully played or stopped (and so muted), so a lifted
    // limit seen before the new job cannot let a stale sample through.
    let limit = shared.playbackLimit.load(ordering: .acquiring)
    let written = ring.producerPosition()
    let job = shared.currentJob.load(ordering: .acquiring)
    var read = ring.consumerPosition()
    if job != jobs.adoptedJob {
        jobs.adoptedJob = job
        let stale = shared.discardBefore.load(ordering: .acquiring)
        if stale > read { read = stale }
    }
    let stop = shared.stopRequest.load(ordering: .acquiring)
    guard stop != jobs.handledStop else {
        return RingRequests(limit: limit, written: written, job: job, read: read, stop: nil, ringEnd: read)
    }
    jobs.handledStop = stop
    // The stopped job's samples still in the ring continue the sound handed over when nothing was
    // discarded in between.
    let continues = job == stop && read == handedOver
    let ringEnd = continues ? (limit < written ? limit : written) : read
    return RingRequests(limit: limit, written: written, job: job, read: read, stop: stop, ringEnd: ringEnd)
}

/// Mutes stopped jobs (wakes the control thread after a STOP) and releases skipped frames; returns
/// the first frame to play and the end of what may be played now (the playback limit).
@_noLocks
package func settleRequests(
    _ jobs: inout JobTracking, _ requests: RingRequests, ring: SampleRing, shared: RenderShared
) -> (read: UInt64, end: UInt64) {
    var read = requests.read
    let (job, written) = (requests.job, requests.written)
    if let stop = requests.stop {
        if stop > jobs.mutedThrough { jobs.mutedThrough = stop }
        if job <= stop && written > read { read = written }
        shared.wakeControl()
    }
    // A stopped job stays muted until a later job begins: whatever its producer still writes goes.
    if job <= jobs.mutedThrough && written > read { read = written }
    ring.consume(upTo: read)
    return (read, requests.limit < written ? requests.limit : written)
}

/// Takes in a new job, a STOP and the playback limit; call it before ``fillFromStream``.
///
/// On a STOP the fade-out continues the sound from `fadeFrom` (the first frame the listener has
/// not heard yet: `handedOver` where the server's queue stays, the position heard where the
/// backend has just flushed the queue), made of the frames remembered and the stopped job's frames
/// still in the ring. The fade is handed over first by the next ``fillFromStream`` calls.
@_noLocks
package func takeStreamRequests(
    _ state: inout StreamRenderState, fadeFrom: UInt64, ring: SampleRing, shared: RenderShared
) -> StreamRequests {
    let requests = lookAtRequests(&state.jobs, handedOver: state.handedOver, ring: ring, shared: shared)
    if requests.stop != nil {
        queueFade(&state, from: fadeFrom, ringEnd: requests.ringEnd, ring: ring, shared: shared)
    }
    let (read, end) = settleRequests(&state.jobs, requests, ring: ring, shared: shared)
    var taken = StreamRequests()
    taken.stopped = requests.stop != nil
    taken.available = end > read ? end - read : 0
    return taken
}

/// Copies the fade-out of the sound from `start` into the fade buffer, with a falling gain.
@_noLocks
private func queueFade(
    _ state: inout StreamRenderState, from start: UInt64, ringEnd: UInt64, ring: SampleRing, shared: RenderShared
) {
    state.fadeCount = 0
    state.fadeSent = 0
    let first = start < state.handedOver ? start : state.handedOver
    let remembered = state.handedOver - first
    // Frames older than the history cannot be faded from: cut (the stop is heard at once).
    guard remembered <= UInt64(state.history.frames) else {
        _ = shared.cutStops.add(1, ordering: .relaxed)
        return
    }
    let count = makeFade(
        into: state.fade, frames: state.fadeFrames, from: first, handedOver: state.handedOver, ringEnd: ringEnd,
        history: state.history, ring: ring)
    guard count > 0 else { return }
    state.fadeCount = count
    _ = shared.fadedStops.add(1, ordering: .relaxed)
}

/// Writes into `fade` (at most `frames` frames) the sound that continues from ring position
/// `first` with a falling gain: the frames remembered in `history` (those from `first` up to
/// `handedOver`, which must not be more than it holds), then the stopped job's frames still in the
/// ring up to `ringEnd`. Returns how many frames it wrote.
@_noLocks
package func makeFade(
    into fade: UnsafeMutablePointer<Int16>, frames: Int, from first: UInt64, handedOver: UInt64, ringEnd: UInt64,
    history: HistoryRing, ring: SampleRing
) -> Int {
    let remembered = handedOver - first
    let fromHistory = remembered < UInt64(frames) ? Int(remembered) : frames
    history.copy(from: first, count: fromHistory, to: fade)
    var fromRing = 0
    if fromHistory == Int(remembered) && ringEnd > handedOver {
        let wanted = UInt64(frames - fromHistory)
        let there = ringEnd - handedOver
        fromRing = Int(there < wanted ? there : wanted)
        ring.copy(from: handedOver, count: fromRing, to: fade + fromHistory)
    }
    let count = fromHistory + fromRing
    // The gain falls along a smoothstep, u²(3 − 2u) for u from 1 to 0: flat where it leaves the
    // sound and where it reaches silence, so neither end adds a corner to the waveform, and the
    // last quarter keeps at most 0.16 of the level (a straight line keeps 0.25 there, which on
    // rising speech left up to half the local amplitude in the last millisecond). Integers only:
    // with at most a few hundred frames, n³ times a sample fits in 64 bits.
    let steps = Int64(count + 1)
    let scale = steps * steps * steps
    for index in 0..<count {
        let left = Int64(count - index)
        let gain = left * left * (3 * steps - 2 * left)
        fade[index] = Int16(truncatingIfNeeded: Int64(fade[index]) * gain / scale)
    }
    return count
}

/// Fills up to `frames` frames of `buffer`: the queued fade-out first, then ring frames (at most
/// `available`, from ``takeStreamRequests``). Returns how many it filled; the ring frames it
/// handed over are remembered and released to the producer.
@_noLocks
package func fillFromStream(
    _ state: inout StreamRenderState, into buffer: UnsafeMutablePointer<Int16>, frames: Int, available: UInt64,
    ring: SampleRing
) -> Int {
    var filled = 0
    if state.fadeSent < state.fadeCount {
        let left = state.fadeCount - state.fadeSent
        let count = left < frames ? left : frames
        UnsafeMutableRawPointer(buffer).copyMemory(
            from: state.fade + state.fadeSent, byteCount: count * MemoryLayout<Int16>.stride)
        state.fadeSent += count
        filled = count
    }
    let room = UInt64(frames - filled)
    let count = Int(available < room ? available : room)
    if count > 0 {
        let read = ring.consumerPosition()
        ring.copy(from: read, count: count, to: buffer + filled)
        state.history.remember(buffer + filled, count: count, from: read)
        state.handedOver = read + UInt64(count)
        ring.consume(upTo: state.handedOver)
        filled += count
    }
    return filled
}

/// Publishes the position heard: `queued` ring frames are still in the server (handed over but not
/// heard), and the stream plays on while `running`. The reading is for the moment `time`
/// (CLOCK_MONOTONIC ns; 0: now). Wakes the control thread at its threshold.
@_noLocks
package func publishStreamPosition(
    _ state: inout StreamRenderState, queued: UInt64, running: Bool, at time: UInt64 = 0, ring: SampleRing,
    shared: RenderShared
) {
    // Nothing queued: everything taken from the ring (discarded frames included) counts as heard.
    let played = queued > 0 ? (state.handedOver > queued ? state.handedOver - queued : 0) : ring.consumerPosition()
    if played > state.played { state.played = played }
    let advancing = running && queued > 0
    shared.publishPlayed(
        state.played, at: time == 0 ? RealTime.monotonicNanoseconds() : time, ceiling: state.handedOver,
        rate: advancing ? UInt64(state.sampleRate) : 0)
}

/// Drops `available` ring frames and any queued fade as if heard: what a backend does while it has
/// no working stream, so positions (and events) still advance.
@_noLocks
package func discardFromStream(_ state: inout StreamRenderState, available: UInt64, ring: SampleRing) {
    state.fadeSent = state.fadeCount
    if available > 0 { ring.consume(upTo: ring.consumerPosition() + available) }
}
