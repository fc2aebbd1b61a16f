/// The fundamental frequency a voice speaks at, measured on its own samples, so that SSML pitches
/// in hertz (`150Hz`, `+20Hz`) can be turned into the ratio libsonic shifts a neural voice by.
public enum VoicePitch {
    /// The pitches looked for: below and above them a speaking voice has none.
    static let hertz = 60.0...500.0
    /// A frame is voiced when it repeats itself this well at its period (normalised correlation).
    static let voicedCorrelation: Float = 0.6
    /// Of the lags, the shortest whose correlation is this close to the best is the period:
    /// twice the period repeats as well as the period itself, and would give an octave too low.
    static let periodTolerance: Float = 0.9

    /// The median F0 of the voiced frames of `samples` (at most `seconds` of them, 46 ms frames
    /// every 23 ms at 22,050 Hz), with how many frames were voiced; nil when none were.
    public static func median(
        of samples: [Int16], sampleRate: Int, seconds: Double = 2
    ) -> (hertz: Double, voicedFrames: Int)? {
        guard sampleRate > 0 else { return nil }
        let signal = samples.prefix(Int(seconds * Double(sampleRate))).map(Float.init)
        let shortest = Int((Double(sampleRate) / hertz.upperBound).rounded(.down))
        let longest = Int((Double(sampleRate) / hertz.lowerBound).rounded(.up))
        let size = max(2 * longest, sampleRate / 22)
        guard shortest > 0, signal.count >= size + longest else { return nil }
        var estimates: [Double] = []
        var start = 0
        while start + size + longest <= signal.count {
            if let period = period(of: signal, at: start, size: size, lags: shortest...longest) {
                estimates.append(Double(sampleRate) / period)
            }
            start += size / 2
        }
        guard !estimates.isEmpty else { return nil }
        estimates.sort()
        return (estimates[estimates.count / 2], estimates.count)
    }

    /// The period in samples of the frame at `start` (with a parabola through the peak for a
    /// fraction of a sample); nil for an unvoiced or silent frame.
    static func period(of signal: [Float], at start: Int, size: Int, lags: ClosedRange<Int>) -> Double? {
        var energy: Float = 0
        for index in start..<(start + size) { energy += signal[index] * signal[index] }
        // Quieter than −50 dBFS: silence or breath.
        guard energy / Float(size) > 100 * 100 else { return nil }
        var correlations = [Float](repeating: 0, count: lags.upperBound + 2)
        var best: Float = 0
        for lag in max(1, lags.lowerBound - 1)...(lags.upperBound + 1) {
            var product: Float = 0
            var shifted: Float = 0
            for index in start..<(start + size) {
                product += signal[index] * signal[index + lag]
                shifted += signal[index + lag] * signal[index + lag]
            }
            let correlation = product / ((energy * shifted).squareRoot() + 1e-9)
            correlations[lag] = correlation
            if lags.contains(lag) { best = max(best, correlation) }
        }
        guard best >= voicedCorrelation else { return nil }
        // The first peak that is nearly the best.
        for lag in lags where correlations[lag] >= periodTolerance * best {
            var peak = lag
            while peak < lags.upperBound && correlations[peak + 1] > correlations[peak] { peak += 1 }
            let (before, at, after) = (correlations[peak - 1], correlations[peak], correlations[peak + 1])
            let curve = before - 2 * at + after
            let offset = curve < 0 ? Double((before - after) / (2 * curve)) : 0
            return Double(peak) + max(-0.5, min(0.5, offset))
        }
        return nil
    }
}
