import Glibc

/// `seconds` of a sine tone at `frequency` Hz peaking at `amplitude`: mono 16-bit samples at `sampleRate`.
public func tone(frequency: Double, seconds: Double, amplitude: Double, sampleRate: Int = 22050) -> [Int16] {
    (0..<Int(seconds * Double(sampleRate))).map { index in
        Int16(amplitude * sin(2 * Double.pi * frequency * Double(index) / Double(sampleRate)))
    }
}

/// A sustained /a/ at `f0` Hz: harmonics shaped by two formants (700 and 1,200 Hz).
public func sustainedVowel(f0: Double, seconds: Double, sampleRate: Int = 22050, amplitude: Double = 9000) -> [Int16] {
    let harmonics = (1...Int(4000 / f0)).map { k -> (Double, Double) in
        let frequency = Double(k) * f0
        let formants = [(700.0, 130.0), (1200.0, 150.0)].reduce(0.0) { sum, formant in
            sum + 1 / (1 + pow((frequency - formant.0) / formant.1, 2))
        }
        return (frequency, (formants + 0.05) / Double(k).squareRoot())
    }
    let scale = amplitude / harmonics.reduce(0) { $0 + $1.1 }
    return (0..<Int(seconds * Double(sampleRate))).map { index in
        let t = Double(index) / Double(sampleRate)
        return Int16(harmonics.reduce(0.0) { $0 + $1.1 * sin(2 * .pi * $1.0 * t) } * scale)
    }
}

/// The runs of quiet samples (each under `threshold` in magnitude; 300 is −40 dBFS) at least
/// `minimum` samples long, the one `samples` end with included.
public func quietRuns(_ samples: [Int16], below threshold: Int32 = 300, atLeast minimum: Int = 1) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var start: Int?
    for (index, sample) in samples.enumerated() {
        if abs(Int32(sample)) < threshold {
            if start == nil { start = index }
        } else if let first = start {
            if index - first >= minimum { runs.append(first..<index) }
            start = nil
        }
    }
    if let first = start, samples.count - first >= minimum { runs.append(first..<samples.count) }
    return runs
}

/// The first and last sample louder than `threshold`, in each stretch of sound separated by at
/// least `gap` quieter samples.
public func soundStretches(_ samples: [Int16], threshold: Int16 = 300, gap: Int = 100) -> [ClosedRange<Int>] {
    var stretches: [ClosedRange<Int>] = []
    for (index, sample) in samples.enumerated() where abs(Int32(sample)) > Int32(threshold) {
        if let last = stretches.last, index - last.upperBound <= gap {
            stretches[stretches.count - 1] = last.lowerBound...index
        } else {
            stretches.append(index...index)
        }
    }
    return stretches
}

/// The fundamental frequency of the middle of `samples`, by normalised autocorrelation over
/// 60…400 Hz: the first peak within 10% of the best one (not its octave below), refined by a
/// parabola through its neighbours.
public func fundamental<Samples: Collection<Int16>>(_ samples: Samples, sampleRate: Int) -> Double {
    let all = samples.map(Double.init)
    let length = min(all.count, sampleRate / 5)
    let start = (all.count - length) / 2
    let x = Array(all[start..<(start + length)])
    let (shortest, longest) = (sampleRate / 400, sampleRate / 60)
    let window = x.count - longest - 1
    guard window > 0 else { return 0 }
    var scores = [Double](repeating: 0, count: longest + 2)
    for lag in (shortest - 1)...(longest + 1) {
        var product = 0.0
        var energyA = 0.0
        var energyB = 0.0
        for index in 0..<window {
            product += x[index] * x[index + lag]
            energyA += x[index] * x[index]
            energyB += x[index + lag] * x[index + lag]
        }
        scores[lag] = product / max(1e-9, (energyA * energyB).squareRoot())
    }
    let best = scores[shortest...longest].max() ?? 0
    guard
        let lag = (shortest...longest).first(where: {
            scores[$0] >= 0.9 * best && scores[$0] >= scores[$0 - 1] && scores[$0] >= scores[$0 + 1]
        })
    else { return 0 }
    let (a, b, c) = (scores[lag - 1], scores[lag], scores[lag + 1])
    let offset = (a - c) / (2 * (a - 2 * b + c))
    return Double(sampleRate) / (Double(lag) + (offset.isFinite ? offset : 0))
}
