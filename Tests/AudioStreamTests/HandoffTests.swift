import AudioStream
import Glibc
import Synchronization
import System
import Testing

/// A handle that records when it is closed, as a device or a stream would be.
private struct Handle: ~Copyable {
    let name: Int
    let closed: Closed

    deinit {
        // As a sound server that hangs holds a close: until the test lets it go.
        while closed.isHeld.load(ordering: .acquiring) { usleep(1000) }
        closed.names.withLock { $0.append(name) }
    }
}

private final class Closed: Sendable {
    let names = Mutex<[Int]>([])
    let isHeld = Atomic(false)
}

/// Boxes a handle as the synth thread does before installing it.
private func box(_ name: Int, _ closed: Closed) -> UnsafeMutablePointer<Handle> {
    let box = UnsafeMutablePointer<Handle>.allocate(capacity: 1)
    box.initialize(to: Handle(name: name, closed: closed))
    return box
}

@Suite struct HandoffTests {
    @Test func `the render side adopts an installed handle once, and the one it held is closed after it retires it`() {
        let closed = Closed()
        let handoff = Handoff<Handle>()
        handoff.install(.handle(box(1, closed)))

        guard case .handle(let first) = handoff.slots.takeInstalled(holding: nil) else {
            Issue.record("the first handle was not adopted")
            return
        }
        handoff.slots.finishAdoption(retiring: nil)
        #expect(first.assumingMemoryBound(to: Handle.self).pointee.name == 1)
        if case .empty = handoff.slots.takeInstalled(holding: first) {} else {
            Issue.record("an empty install slot gave something")
        }

        handoff.install(.handle(box(2, closed)))
        guard case .handle(let second) = handoff.slots.takeInstalled(holding: first) else {
            Issue.record("the second handle was not adopted")
            return
        }
        handoff.slots.finishAdoption(retiring: first)
        #expect(second.assumingMemoryBound(to: Handle.self).pointee.name == 2)
        #expect(handoff.slots.adoptions.load(ordering: .acquiring) == 2)
        #expect(closed.names.withLock { $0 } == [])
        handoff.closeRetired()
        #expect(closed.names.withLock { $0 } == [1])

        _ = handoff.replace(.exit, with: .handle(second.assumingMemoryBound(to: Handle.self)))
        #expect(handoff.closeAll(until: .max))
        #expect(closed.names.withLock { $0 } == [1, 2])
    }

    @Test func `a handle is not adopted while the retired one waits to be closed, and one never adopted is closed when replaced`() {
        let closed = Closed()
        let handoff = Handoff<Handle>()
        handoff.install(.handle(box(1, closed)))
        guard case .handle(let first) = handoff.slots.takeInstalled(holding: nil) else {
            Issue.record("the first handle was not adopted")
            return
        }
        handoff.slots.finishAdoption(retiring: nil)
        handoff.install(.handle(box(2, closed)))
        guard case .handle(let second) = handoff.slots.takeInstalled(holding: first) else {
            Issue.record("the second handle was not adopted")
            return
        }
        handoff.slots.finishAdoption(retiring: first)

        // The synth thread has not closed handle 1 yet: handle 3 waits, and handle 4 replaces it.
        handoff.install(.handle(box(3, closed)))
        if case .empty = handoff.slots.takeInstalled(holding: second) {} else {
            Issue.record("a handle was adopted while the retired slot was full")
        }
        handoff.install(.handle(box(4, closed)))
        #expect(closed.names.withLock { $0 } == [3])

        // Withdrawing: "none" is taken by the render side, which hands handle 2 back.
        handoff.closeRetired()
        handoff.install(.none)
        #expect(closed.names.withLock { $0 } == [3, 1, 4])
        guard case .none = handoff.slots.takeInstalled(holding: second) else {
            Issue.record("the render side was not told to stop using its handle")
            return
        }
        handoff.slots.finishAdoption(retiring: second)
        #expect(handoff.closeAll(until: .max))
        #expect(closed.names.withLock { $0 } == [3, 1, 4, 2])
    }

    @Test func `a close held by the device gives up at the deadline, goes on alone, and is waited for again`() {
        let closed = Closed()
        let handoff = Handoff<Handle>()
        _ = handoff.replace(.exit, with: .handle(box(1, closed)))
        closed.isHeld.store(true, ordering: .releasing)
        #expect(!handoff.closeAll(until: MonotonicClock.now + 50_000_000))
        #expect(closed.names.withLock { $0 } == [])
        #expect(!handoff.closeAll(until: MonotonicClock.now + 10_000_000), "a second call waits for the same close")
        closed.isHeld.store(false, ordering: .releasing)
        #expect(handoff.closeAll(until: .max))
        #expect(closed.names.withLock { $0 } == [1])
        #expect(handoff.closeAll(until: .max), "nothing is left to close")
    }

    @Test func `with nothing to close no thread is needed and the answer is at once`() {
        let handoff = Handoff<Handle>()
        #expect(handoff.closeAll(until: MonotonicClock.now))
    }
}
