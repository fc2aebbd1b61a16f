import CSonic

/// Speech that arrives in pieces (an engine's chunks) played `speed` times as fast, pitch kept,
/// each piece's output handed back as soon as libsonic has it.
///
/// libsonic holds back about two periods of the lowest pitch it looks for (some 30 ms of input)
/// until more comes or the stream is finished; the output stays aligned with the input, so input
/// sample n is heard near output sample n / `speed` (``SpeedChange/position(_:speed:)``).
public struct SpeedStream: ~Copyable {
    public let speed: Double
    private let stream: sonicStream

    /// A stream at `speed` (kept within ``SpeedChange/speeds``); nil when libsonic cannot make it
    /// (out of memory).
    public init?(speed: Double, sampleRate: Int) {
        guard let stream = sonicCreateStream(Int32(sampleRate), 1) else { return nil }
        self.speed = min(max(speed, SpeedChange.speeds.lowerBound), SpeedChange.speeds.upperBound)
        self.stream = stream
        sonicSetSpeed(stream, Float(self.speed))
    }

    deinit {
        sonicDestroyStream(stream)
    }

    /// Takes `samples` and returns the output ready so far; `finishing` also returns what the
    /// stream still holds (the end of a stretch of speech), leaving it empty. Empty when libsonic
    /// cannot grow its buffers (out of memory).
    public mutating func process(_ samples: UnsafeBufferPointer<Int16>, finishing: Bool = false) -> [Int16] {
        if let base = samples.baseAddress, !samples.isEmpty {
            // libsonic copies the input; its parameter is not const only by oversight.
            guard sonicWriteShortToStream(stream, UnsafeMutablePointer(mutating: base), Int32(samples.count)) != 0
            else { return [] }
        }
        if finishing {
            guard sonicFlushStream(stream) != 0 else { return [] }
        }
        let available = Int(sonicSamplesAvailable(stream))
        guard available > 0 else { return [] }
        var output = [Int16](repeating: 0, count: available)
        let read = output.withUnsafeMutableBufferPointer { buffer in
            sonicReadShortFromStream(stream, buffer.baseAddress, Int32(buffer.count))
        }
        output.removeSubrange(max(0, Int(read))...)
        return output
    }
}
