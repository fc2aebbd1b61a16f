import System

/// Samples kept in memory, for tests and for programs that process speech themselves.
public final class MemoryStore: SampleStore {
    private let samples = Locked<[Int16]>([])

    public init() {}

    public func append(_ samples: UnsafeBufferPointer<Int16>) -> (any Error)? {
        self.samples.withLock { $0.append(contentsOf: samples) }
        return nil
    }

    /// Every sample stored so far.
    public var contents: [Int16] { samples.withLock { $0 } }
}
