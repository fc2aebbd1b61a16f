/// What the synth thread reports about a job, each at an absolute sample position of the output.
public enum SynthesisEvent: Equatable, Sendable {
    /// The job's first sample is at `position`.
    case audioStart(job: UInt64, position: UInt64)
    /// Mark `name` sits before the sample at `position`.
    case mark(job: UInt64, name: String, position: UInt64)
    /// The engine starts a word at `position`; `text` are its Unicode scalar offsets in the text
    /// content of the job's SSML (markup left out, entities decoded).
    case word(job: UInt64, text: Range<Int>, position: UInt64)
    /// Every mark before `position` has been reported; samples up to it may now be written.
    case progress(job: UInt64, position: UInt64)
    /// The job's last sample ends before `position`.
    case end(job: UInt64, position: UInt64)

    /// The job the event belongs to.
    public var job: UInt64 {
        switch self {
        case .audioStart(let job, _), .mark(let job, _, _), .word(let job, _, _), .progress(let job, _),
            .end(let job, _):
            job
        }
    }

    /// The position the event waits for.
    public var position: UInt64 {
        switch self {
        case .audioStart(_, let position), .mark(_, _, let position), .word(_, _, let position),
            .progress(_, let position), .end(_, let position):
            position
        }
    }
}

/// What libespeak-ng reports inside one chunk of a synthesis call.
public enum EngineEvent: Equatable, Sendable {
    /// A `<mark/>`, at `sample` samples from the start of the call.
    case mark(name: String, sample: Int)
    /// A word starting at `sample`, at 1-based Unicode scalar `textPosition` of the call's SSML
    /// (markup counted), `length` scalars long.
    case word(textPosition: Int, length: Int, sample: Int)
}
