/// The last `capacity` things said, oldest dropped first: a ring that never grows past its capacity.
public struct SpeechHistory<Element> {
    /// How many entries are kept; 0 keeps none.
    public let capacity: Int
    private var storage: [Element] = []
    /// Where the oldest entry sits once the ring is full.
    private var start = 0

    /// An empty history keeping at most `capacity` entries (a negative one keeps none).
    public init(capacity: Int) {
        self.capacity = max(0, capacity)
        storage.reserveCapacity(self.capacity)
    }

    /// How many entries are kept now.
    public var count: Int { storage.count }

    public var isEmpty: Bool { storage.isEmpty }

    /// Adds `element` as the newest entry, dropping the oldest when full.
    public mutating func append(_ element: Element) {
        guard capacity > 0 else { return }
        if storage.count < capacity {
            storage.append(element)
        } else {
            storage[start] = element
            start = (start + 1) % capacity
        }
    }

    /// Entry `number` counted from the newest (1), or nil when there is no such entry.
    public subscript(newest number: Int) -> Element? {
        guard number >= 1, number <= storage.count else { return nil }
        return storage[(start + storage.count - number) % storage.count]
    }

    /// Every entry, the newest first.
    public var newestFirst: [Element] {
        (1...max(1, storage.count)).compactMap { self[newest: $0] }
    }

    /// Forgets every entry.
    public mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        start = 0
    }
}

extension SpeechHistory: Sendable where Element: Sendable {}
extension SpeechHistory: Equatable where Element: Equatable {}
