import CSoxr

/// Sample rate conversion of a whole stretch of samples at once (libsoxr's high quality).
public enum Resampling {
    /// `samples` at `inputRate` converted to `outputRate`; nil when libsoxr fails.
    public static func convert(_ samples: [Float], from inputRate: Int, to outputRate: Int) -> [Float]? {
        guard inputRate != outputRate else { return samples }
        let capacity = Int((Double(samples.count) * Double(outputRate) / Double(inputRate)).rounded(.up)) + 16
        var output = [Float](repeating: 0, count: capacity)
        var produced = 0
        let error = samples.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                soxr_oneshot(
                    Double(inputRate), Double(outputRate), 1, source.baseAddress, source.count, nil,
                    destination.baseAddress, destination.count, &produced, nil, nil, nil)
            }
        }
        guard error == nil else { return nil }
        return Array(output.prefix(produced))
    }
}
