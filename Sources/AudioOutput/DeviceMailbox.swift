import Synchronization

/// One slot through which a ``PCMDevice`` changes hands between the synth thread, which opens and
/// closes devices, and the render thread, which only plays them. It holds a device, the word that
/// no device is to be used, or nothing; taking and putting are single atomic operations, so the
/// render thread never waits for the other side.
struct DeviceMailbox: ~Copyable, Sendable {
    /// What a mailbox holds.
    enum Content {
        case empty
        /// Stop using any device.
        case noDevice
        case device(UnsafeMutablePointer<PCMDevice>)
    }

    /// The content as one word: 0 empty, 1 no device, else the device's address.
    private let slot = Atomic<UInt>(0)

    /// Whether nothing is in the mailbox.
    @_noLocks
    func isEmpty() -> Bool {
        slot.load(ordering: .acquiring) == 0
    }

    /// Takes what is in the mailbox, leaving it empty.
    @_noLocks
    func take() -> Content {
        decodeContent(slot.exchange(0, ordering: .acquiringAndReleasing))
    }

    /// Puts `content` in the mailbox; what was there must already have been taken.
    @_noLocks
    func put(_ content: Content) {
        slot.store(encodeContent(content), ordering: .releasing)
    }

    /// Puts `content` in the mailbox and returns what was there.
    func replace(with content: Content) -> Content {
        decodeContent(slot.exchange(encodeContent(content), ordering: .acquiringAndReleasing))
    }
}

/// The content as one word: 0 empty, 1 no device, else the device's address.
@_noLocks
private func encodeContent(_ content: DeviceMailbox.Content) -> UInt {
    switch content {
    case .empty: 0
    case .noDevice: 1
    case .device(let box): UInt(bitPattern: box)
    }
}

@_noLocks
private func decodeContent(_ word: UInt) -> DeviceMailbox.Content {
    if word == 0 { return .empty }
    if word == 1 { return .noDevice }
    guard let box = UnsafeMutablePointer<PCMDevice>(bitPattern: word) else { return .empty }
    return .device(box)
}
