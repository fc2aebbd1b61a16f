internal import CALSA
import Glibc
import Synchronization

// The render side of a sound-server stream (PulseAudio, PipeWire): real-time, like RenderLoop.swift
// (see there), and checked the same way (`@_noLocks`). A sound server asks for frames; these
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
    var adoptedJob: UInt64 = 0
    /// Samples of jobs up to this one are discarded (they were stopped).
    var mutedThrough: UInt64 = 0
    var handledStop: UInt64 = 0

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
    shared.stopRequest.load(ordering: .acquiring) != state.handledStop
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
    // The load order of `renderStep` (RenderLoop.swift), for the same reasons.
    let limit = shared.playbackLimit.load(ordering: .acquiring)
    let written = ring.producerPosition()
    let job = shared.currentJob.load(ordering: .acquiring)
    var read = ring.consumerPosition()
    var requests = StreamRequests()

    if job != state.adoptedJob {
        state.adoptedJob = job
        let stale = shared.discardBefore.load(ordering: .acquiring)
        if stale > read { read = stale }
    }
    let stop = shared.stopRequest.load(ordering: .acquiring)
    if stop != state.handledStop {
        state.handledStop = stop
        requests.stopped = true
        let continues = job == stop && read == state.handedOver
        let ringEnd = continues ? (limit < written ? limit : written) : read
        queueFade(&state, from: fadeFrom, ringEnd: ringEnd, ring: ring, shared: shared)
        if stop > state.mutedThrough { state.mutedThrough = stop }
        if job <= stop && written > read { read = written }
        wake(shared.controlWakeFD)
    }
    // A stopped job stays muted until a later job begins: whatever its producer still writes goes.
    if job <= state.mutedThrough && written > read { read = written }
    ring.consume(upTo: read)
    let end = limit < written ? limit : written
    requests.available = end > read ? end - read : 0
    return requests
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
    let fromHistory = remembered < UInt64(state.fadeFrames) ? Int(remembered) : state.fadeFrames
    state.history.copy(from: first, count: fromHistory, to: state.fade)
    var fromRing = 0
    if fromHistory == Int(remembered) && ringEnd > state.handedOver {
        let wanted = UInt64(state.fadeFrames - fromHistory)
        let there = ringEnd - state.handedOver
        fromRing = Int(there < wanted ? there : wanted)
        ring.copy(from: state.handedOver, count: fromRing, to: state.fade + fromHistory)
    }
    let count = fromHistory + fromRing
    guard count > 0 else { return }
    for index in 0..<count {
        let gain = Int32(count - index)
        state.fade[index] = Int16(truncatingIfNeeded: Int32(state.fade[index]) * gain / Int32(count + 1))
    }
    state.fadeCount = count
    _ = shared.fadedStops.add(1, ordering: .relaxed)
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
    shared.playedPosition.store(state.played, ordering: .releasing)
    var nanoseconds = time
    if nanoseconds == 0 {
        var now = timespec()
        // clock_gettime: served by the vDSO without a system call; no allocation.
        _ = _unsafePerformance { clock_gettime(CLOCK_MONOTONIC, &now) }
        nanoseconds = UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }
    let advancing = running && queued > 0
    let wasRunning = shared.clock.publish(
        position: state.played, time: nanoseconds, ceiling: state.handedOver,
        rate: advancing ? UInt64(state.sampleRate) : 0)
    let threshold = shared.notifyThreshold.load(ordering: .acquiring)
    if state.played >= threshold {
        // Exactly one wake per threshold: the control thread may be replacing it concurrently.
        let (exchanged, _) = shared.notifyThreshold.compareExchange(
            expected: threshold, desired: .max, ordering: .acquiringAndReleasing)
        if exchanged { wake(shared.controlWakeFD) }
    } else if advancing && !wasRunning {
        // The control thread could not time its next event from a stopped clock: it can now.
        if threshold != .max { wake(shared.controlWakeFD) }
    }
}

/// Drops `available` ring frames and any queued fade as if heard: what a backend does while it has
/// no working stream, so positions (and events) still advance.
@_noLocks
package func discardFromStream(_ state: inout StreamRenderState, available: UInt64, ring: SampleRing) {
    state.fadeSent = state.fadeCount
    if available > 0 { ring.consume(upTo: ring.consumerPosition() + available) }
}
