import CSonic

/// Speech played faster or slower with its pitch kept (libsonic's pitch-synchronous overlap-add),
/// for the voices that cannot change their own pace: recorded clips, and neural voices beyond the
/// length scale their model handles well.
public enum SpeedChange {
    /// The speeds libsonic is asked for: beyond them speech is no longer understood anyway.
    public static let speeds = 0.25...8.0

    /// The pitch factors libsonic is asked for: an octave either way.
    public static let pitchFactors = 0.5...2.0

    /// `samples` (mono, at `sampleRate`) played `speed` times as fast with their pitch times
    /// `pitch`; unchanged at 1 and 1, and nil when libsonic cannot make its stream (out of memory).
    public static func apply(_ samples: [Int16], speed: Double, pitch: Double = 1, sampleRate: Int) -> [Int16]? {
        apply(samples, speed: speed, pitches: [(0, pitch)], sampleRate: sampleRate)
    }

    /// `samples` played `speed` times as fast, their pitch times `pitches[i].pitch` from sample
    /// `pitches[i].sample` on (in order; 1 before the first). libsonic applies a change within
    /// about two pitch periods of where it is asked for.
    public static func apply(
        _ samples: [Int16], speed: Double, pitches: [(sample: Int, pitch: Double)], sampleRate: Int
    ) -> [Int16]? {
        let speed = min(max(speed, speeds.lowerBound), speeds.upperBound)
        // A pitch that is not a number is none (libsonic must not get NaN).
        let pitches = pitches.map {
            (
                min(max($0.sample, 0), samples.count),
                $0.pitch.isNaN ? 1 : min(max($0.pitch, pitchFactors.lowerBound), pitchFactors.upperBound)
            )
        }
        let changesPitch = pitches.contains { abs($0.1 - 1) > 0.001 }
        guard abs(speed - 1) > 0.001 || changesPitch, !samples.isEmpty else { return samples }
        guard let stream = sonicCreateStream(Int32(sampleRate), 1) else { return nil }
        defer { sonicDestroyStream(stream) }
        sonicSetSpeed(stream, Float(speed))
        var input = samples
        let bounds = [0] + pitches.map(\.0) + [samples.count]
        let written = input.withUnsafeMutableBufferPointer { buffer in
            for stretch in 0..<(bounds.count - 1) where bounds[stretch] < bounds[stretch + 1] {
                sonicSetPitch(stream, Float(stretch == 0 ? 1 : pitches[stretch - 1].1))
                let count = bounds[stretch + 1] - bounds[stretch]
                guard sonicWriteShortToStream(stream, buffer.baseAddress! + bounds[stretch], Int32(count)) != 0 else {
                    return false
                }
            }
            return true
        }
        guard written, sonicFlushStream(stream) != 0 else { return nil }
        var output = [Int16](repeating: 0, count: Int(Double(samples.count) / speed) + 4096)
        var produced = 0
        while produced < output.count {
            let read = output.withUnsafeMutableBufferPointer { buffer in
                sonicReadShortFromStream(
                    stream, buffer.baseAddress! + produced, Int32(buffer.count - produced))
            }
            guard read > 0 else { break }
            produced += Int(read)
        }
        output.removeSubrange(produced...)
        return output
    }

    /// Where the sample at `position` of the original is heard after a change to `speed`.
    public static func position(_ position: Int, speed: Double) -> Int {
        let speed = min(max(speed, speeds.lowerBound), speeds.upperBound)
        guard abs(speed - 1) > 0.001 else { return position }
        return Int((Double(position) / speed).rounded())
    }

    /// The samples from a clip's first sound to its last: louder than −34 dB under its peak, so
    /// room noise and breath at its ends are not counted, a word's quiet ending is. nil for silence.
    public static func soundSpan(of samples: [Int16]) -> ClosedRange<Int>? {
        let peak = samples.reduce(0) { max($0, Int32(abs(Int32($1)))) }
        let threshold = max(peak / 50, 16)
        guard let first = samples.firstIndex(where: { abs(Int32($0)) > threshold }),
            let last = samples.lastIndex(where: { abs(Int32($0)) > threshold })
        else { return nil }
        return first...last
    }

    /// A recorded clip at `speed`: its sound sped up or slowed down, and above a speed of 1 the
    /// near-silence at its two ends shortened by the speed once more before that, so that a
    /// phrase of clips recorded with generous margins flows like speech (at `speed` 2 a 200 ms
    /// margin becomes 50 ms, the words half as long). At 1 the clip is as recorded.
    public static func clip(_ samples: [Int16], speed: Double, sampleRate: Int) -> [Int16]? {
        let speed = min(max(speed, speeds.lowerBound), speeds.upperBound)
        guard abs(speed - 1) > 0.001, !samples.isEmpty else { return samples }
        var trimmed = samples[...]
        if speed > 1, let span = soundSpan(of: samples) {
            let leading = Int(Double(span.lowerBound) / speed)
            let trailing = Int(Double(samples.count - 1 - span.upperBound) / speed)
            trimmed = samples[(span.lowerBound - leading)...(span.upperBound + trailing)]
        }
        return apply(Array(trimmed), speed: speed, sampleRate: sampleRate)
    }
}
