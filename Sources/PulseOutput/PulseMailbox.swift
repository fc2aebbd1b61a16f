import Synchronization

/// One slot through which a ``PulseStream`` changes hands between the synth thread, which opens and
/// closes streams, and the render thread, which only plays them: a stream, the word that none is to
/// be used, or nothing. Taking and putting are single atomic operations, so the render thread never
/// waits for the other side.
struct PulseMailbox: ~Copyable, Sendable {
    enum Content {
        case empty
        /// Stop using any stream.
        case noStream
        case stream(UnsafeMutablePointer<PulseStream>)
    }

    /// The content as one word: 0 empty, 1 no stream, else the stream's address.
    private let slot = Atomic<UInt>(0)

    @_noLocks
    func isEmpty() -> Bool {
        slot.load(ordering: .acquiring) == 0
    }

    /// Takes what is in the mailbox, leaving it empty.
    @_noLocks
    func take() -> Content {
        decode(slot.exchange(0, ordering: .acquiringAndReleasing))
    }

    /// Puts `content` in the mailbox and returns what was there.
    @_noLocks
    func replace(with content: Content) -> Content {
        decode(slot.exchange(encode(content), ordering: .acquiringAndReleasing))
    }
}

@_noLocks
private func encode(_ content: PulseMailbox.Content) -> UInt {
    switch content {
    case .empty: 0
    case .noStream: 1
    case .stream(let box): UInt(bitPattern: box)
    }
}

@_noLocks
private func decode(_ word: UInt) -> PulseMailbox.Content {
    if word == 0 { return .empty }
    if word == 1 { return .noStream }
    guard let box = UnsafeMutablePointer<PulseStream>(bitPattern: word) else { return .empty }
    return .stream(box)
}
