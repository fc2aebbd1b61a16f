/// What the synth thread does to a synthesis engine's samples before they are written: pure
/// arithmetic on 16-bit mono samples, the same for every engine.
public enum SampleEdit {
    /// Samples a cut leaves: 3 ms at 22,050 Hz, enough that a cut through a sound does not click.
    public static let cutFade = 64

    /// `samples` times `gains[i].gain` from sample `gains[i].sample` on (in order; 1 before the
    /// first), each change made over ``cutFade`` samples so that it does not click; clipped at full
    /// scale. A gain that is not finite counts as 1, a negative one as 0.
    public static func amplify(_ samples: inout [Int16], gains: [(sample: Int, gain: Double)]) {
        func usable(_ gain: Double) -> Double { gain.isFinite ? max(0, gain) : 1 }
        guard gains.contains(where: { abs(usable($0.gain) - 1) > 0.001 }) else { return }
        var previous = usable(gains[0].gain)
        for (index, change) in gains.enumerated() {
            let from = min(max(change.sample, 0), samples.count)
            let to = index + 1 < gains.count ? min(max(gains[index + 1].sample, from), samples.count) : samples.count
            let gain = usable(change.gain)
            for offset in from..<to {
                let step = offset - from
                let factor = step < cutFade ? previous + (gain - previous) * Double(step) / Double(cutFade) : gain
                samples[offset] = Int16(max(-32767, min(32767, (Double(samples[offset]) * factor).rounded())))
            }
            previous = gain
        }
    }

    /// `samples` faded in at their start and out at their end, where they were cut out of a longer
    /// sound, over ``cutFade`` samples (half of them, for fewer than twice that many).
    public static func fadeCut(_ samples: inout [Int16], in fadesIn: Bool, out fadesOut: Bool) {
        let length = min(cutFade, samples.count / 2)
        guard length > 0 else { return }
        for offset in 0..<length {
            let gain = Double(offset) / Double(length)
            if fadesIn { samples[offset] = Int16((Double(samples[offset]) * gain).rounded()) }
            if fadesOut {
                let last = samples.count - 1 - offset
                samples[last] = Int16((Double(samples[last]) * gain).rounded())
            }
        }
    }

    /// A model's float samples as 16-bit ones scaled to full range, as Piper writes them (a
    /// near-silent piece is not blown up: the peak counts as at least 0.01); NaN and infinities
    /// are silence.
    public static func fullScalePCM(_ samples: [Float]) -> [Int16] {
        let peak = samples.reduce(Float(0)) { max($0, abs($1.isFinite ? $1 : 0)) }
        let scale = 32767 / max(peak, 0.01)
        return samples.map { value in
            guard value.isFinite else { return 0 }
            return Int16(max(-32767, min(32767, (value * scale).rounded())))
        }
    }
}

/// Drops the digital silence an engine starts an utterance with, up to `limit` samples over as
/// many chunks as it takes: where it is no pause anyone wants (the start of a message, a
/// sentence going on in another voice), it only delays the sound.
public struct LeadingSilenceTrim: Sendable {
    public let limit: Int
    /// How many zeros were dropped so far.
    public private(set) var trimmed = 0
    /// Whether zeros are still being dropped: until the first non-zero sample or the limit.
    public private(set) var isTrimming: Bool

    public init(limit: Int, trims: Bool) {
        self.limit = limit
        self.isTrimming = trims && limit > 0
    }

    /// What of `chunk` is kept: the zeros it starts with dropped while trimming.
    public mutating func keep(_ chunk: UnsafeBufferPointer<Int16>) -> UnsafeBufferPointer<Int16> {
        guard isTrimming else { return chunk }
        let zeros = min(chunk.firstIndex { $0 != 0 } ?? chunk.count, limit - trimmed)
        trimmed += zeros
        let kept = UnsafeBufferPointer(rebasing: chunk[zeros...])
        isTrimming = kept.isEmpty && trimmed < limit
        return kept
    }
}
