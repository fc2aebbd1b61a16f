/// Decides when each synthesis event is due: events with sample positions go in, and with the
/// position heard so far come out the events now due, the position to wake at for the next one,
/// and where playback must stop for a pause to land on a boundary.
///
/// Pure: the caller reads the clock and the device. Several jobs may be tracked at once (queued
/// utterances play back to back); their positions grow from job to job.
public struct PlaybackTracker: Sendable {
    private var queue: [SynthesisEvent] = []
    private var head = 0
    /// The tracked jobs, oldest first, with their end positions once known.
    private var jobs: [(id: UInt64, end: UInt64?)] = []
    /// Every mark and word before this position has been reported.
    public private(set) var knownProgress: UInt64 = 0

    public init() {}

    /// Starts accepting events of `job`, which comes after every job tracked so far.
    public mutating func track(_ job: UInt64) {
        jobs.append((job, nil))
    }

    /// Drops `job` and every earlier job, with their pending events (the job ended or was stopped).
    public mutating func forget(through job: UInt64) {
        jobs.removeAll { $0.id <= job }
        queue.removeSubrange(0..<head)
        head = 0
        queue.removeAll { $0.job <= job }
        if jobs.isEmpty { knownProgress = 0 }
    }

    /// Whether `job` is tracked.
    public func isTracking(_ job: UInt64) -> Bool {
        jobs.contains { $0.id == job }
    }

    /// The oldest tracked job: the one being heard.
    public var currentJob: UInt64? { jobs.first?.id }

    /// Takes events from the synth thread; those of untracked jobs are ignored.
    public mutating func receive<Events: Sequence<SynthesisEvent>>(_ events: Events) {
        for event in events {
            guard let index = jobs.firstIndex(where: { $0.id == event.job }) else { continue }
            switch event {
            case .progress(_, let position):
                knownProgress = max(knownProgress, position)
            case .end(_, let position):
                knownProgress = max(knownProgress, position)
                jobs[index].end = position
                queue.append(event)
            case .audioStart, .mark, .word:
                queue.append(event)
            }
        }
    }

    /// The next event due once `heard` samples have been heard, removed from the queue; nil if none.
    public mutating func nextDue(heard: UInt64) -> SynthesisEvent? {
        guard head < queue.count, heard >= threshold(of: queue[head]) else { return nil }
        let event = queue[head]
        head += 1
        if head > 4096 && head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        return event
    }

    /// The position at which the next pending event is due; nil when none is pending.
    public var wakePosition: UInt64? {
        head < queue.count ? threshold(of: queue[head]) : nil
    }

    /// The position heard when `event` is due: a start or a word waits for its first sample to be
    /// heard (a pause right before a word has not let it be heard), anything else for every sample
    /// before it, and nothing waits past its job's end.
    public func threshold(of event: SynthesisEvent) -> UInt64 {
        let own: UInt64
        switch event {
        case .audioStart(_, let position), .word(_, _, let position): own = position + 1
        default: own = event.position
        }
        if let end = jobs.first(where: { $0.id == event.job })?.end { return min(own, end) }
        return own
    }

    /// The first event not handed out yet that `matches` accepts.
    public func pendingEvent(where matches: (SynthesisEvent) -> Bool) -> SynthesisEvent? {
        queue[head...].first(where: matches)
    }

    /// Where playback must stop so that a pause lands on the next pending event `isBoundary`
    /// accepts. Until such an event is known, playback may not pass the point up to which the
    /// synth thread has reported its events (so nothing after a boundary is heard), nor the end
    /// of the last tracked job.
    ///
    /// A mark at the very start of a job is held one sample later: the job's start, which comes
    /// before it, is due only once a sample is heard, and the mark cannot come out before it.
    /// (A word there needs no such sample: it is due with its own first one.)
    public func pauseLimit(where isBoundary: (SynthesisEvent) -> Bool) -> UInt64 {
        if let boundary = pendingEvent(where: isBoundary) {
            let startsThere = queue[head...].contains {
                if case .audioStart(let job, let position) = $0 { return job == boundary.job && position == boundary.position }
                return false
            }
            return startsThere && threshold(of: boundary) == boundary.position ? boundary.position + 1 : boundary.position
        }
        if let last = jobs.last, let end = last.end { return end }
        return knownProgress
    }
}
