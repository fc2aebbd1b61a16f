package import Synchronization
import System

/// How a backend's handle (an ALSA device, a libpulse stream) changes hands between the synth
/// thread, which opens and closes handles, and the render thread, which only plays them.
///
/// Three slots, each holding a handle, the word that none is to be used, or nothing: `install`
/// (synth → render), `retired` (render → synth, to close) and `exit` (what the render thread held
/// when it ended). Taking and putting are single atomic exchanges, so the render thread never
/// waits. The render thread works on ``slots`` (untyped, so that its `@_noLocks` check passes:
/// generic code cannot); this type adds the typed side that opens and closes handles.
package final class Handoff<Handle: ~Copyable>: Sendable {
    /// What a slot holds.
    package enum Content {
        case empty
        /// Stop using any handle.
        case none
        case handle(UnsafeMutablePointer<Handle>)
    }

    /// The slots themselves, for the render thread.
    package let slots = HandoffSlots()

    package init() {}

    /// Puts `content` in `slot` and returns what was there.
    package func replace(_ slot: HandoffSlots.Slot, with content: consuming Content) -> Content {
        let old: HandoffSlots.Content =
            switch content {
            case .empty: slots.replace(slot, with: .empty)
            case .none: slots.replace(slot, with: .none)
            case .handle(let box): slots.replace(slot, with: .handle(UnsafeMutableRawPointer(box)))
            }
        switch old {
        case .empty: return .empty
        case .none: return .none
        case .handle(let raw): return .handle(raw.assumingMemoryBound(to: Handle.self))
        }
    }

    /// Closes the handle `content` holds, if any; never on the render thread.
    package func close(_ content: consuming Content) {
        guard case .handle(let box) = content else { return }
        box.deinitialize(count: 1)
        box.deallocate()
    }

    /// Installs `content` for the render thread, closing a handle installed earlier and never adopted.
    package func install(_ content: consuming Content) {
        close(replace(.install, with: content))
    }

    /// Closes what the render thread retired.
    package func closeRetired() {
        close(replace(.retired, with: .empty))
    }

    /// Tells the render thread to stop using its handle (woken by `wake`), waits up to 200 ms for
    /// it to hand the handle back, and closes it; if it does not (it is blocked in the handle), the
    /// next ``closeRetired()`` does.
    package func withdraw(wake: () -> Void) {
        let before = slots.adoptions.load(ordering: .acquiring)
        install(.none)
        wake()
        for _ in 0..<200 where slots.adoptions.load(ordering: .acquiring) == before {
            MonotonicClock.sleep(nanoseconds: 1_000_000)
        }
        closeRetired()
    }

    /// Closes every handle left in the slots, once the render thread has ended, waiting for that
    /// until `deadline` (``MonotonicClock`` nanoseconds). Closing can wait on a sound server:
    /// alsa-lib stops a stream before it closes it, and the PulseAudio plugin waits for the
    /// server to confirm the stop, for good if the server hangs. So the handles are closed on a
    /// thread of their own; false if it is still closing at the deadline (it carries on alone,
    /// and a later call waits for it again).
    package func closeAll(until deadline: UInt64) -> Bool {
        let thread = closer.withLock { closer -> NamedThread? in
            if closer == nil, ![.exit, .install, .retired].allSatisfy(slots.isEmpty) {
                closer = try? NamedThread(name: "utter-close") { self.closeAll() }
                if closer == nil { closeAll() }  // out of threads: close here, at the risk of waiting
            }
            return closer
        }
        guard let thread else { return true }
        guard thread.join(until: deadline) else { return false }
        closer.withLock { if $0 === thread { $0 = nil } }
        return true
    }

    private let closer = Locked<NamedThread?>(nil)

    private func closeAll() {
        close(replace(.exit, with: .empty))
        close(replace(.install, with: .empty))
        close(replace(.retired, with: .empty))
    }
}

/// A ``Handoff``'s three slots, each one word: 0 empty, 1 none, else the handle's address.
package final class HandoffSlots: Sendable {
    /// Which slot.
    package enum Slot {
        case install, retired, exit
    }

    /// What a slot holds, untyped.
    package enum Content {
        case empty
        case none
        case handle(UnsafeMutableRawPointer)
    }

    private let install = Atomic<UInt>(0)
    private let retired = Atomic<UInt>(0)
    private let exit = Atomic<UInt>(0)
    /// Counts the adoptions from `install`; bumped after the previous handle is in `retired` (render).
    package let adoptions = Atomic<UInt64>(0)

    /// Whether nothing is in `slot`.
    @_noLocks
    package func isEmpty(_ slot: Slot) -> Bool {
        switch slot {
        case .install: install.load(ordering: .acquiring) == 0
        case .retired: retired.load(ordering: .acquiring) == 0
        case .exit: exit.load(ordering: .acquiring) == 0
        }
    }

    /// Puts `content` in `slot` and returns what was there.
    @_noLocks
    package func replace(_ slot: Slot, with content: Content) -> Content {
        let word: UInt =
            switch content {
            case .empty: 0
            case .none: 1
            case .handle(let raw): UInt(bitPattern: raw)
            }
        let old: UInt =
            switch slot {
            case .install: install.exchange(word, ordering: .acquiringAndReleasing)
            case .retired: retired.exchange(word, ordering: .acquiringAndReleasing)
            case .exit: exit.exchange(word, ordering: .acquiringAndReleasing)
            }
        if old == 0 { return .empty }
        if old == 1 { return .none }
        guard let raw = UnsafeMutableRawPointer(bitPattern: old) else { return .empty }
        return .handle(raw)
    }

    /// Render thread: the content of `install` for a thread holding `current`; `.empty` while
    /// there is nothing new, or while `retired` is still full (only the render thread fills it: the
    /// old handle stays in use until the synth thread has closed the previous one). Follow any
    /// other answer with ``finishAdoption(retiring:)``.
    @_noLocks
    package func takeInstalled(holding current: UnsafeMutableRawPointer?) -> Content {
        guard !isEmpty(.install) else { return .empty }
        if current != nil {
            if !isEmpty(.retired) { return .empty }
        }
        return replace(.install, with: .empty)
    }

    /// Render thread: hands `old` back to be closed and counts the adoption.
    @_noLocks
    package func finishAdoption(retiring old: UnsafeMutableRawPointer?) {
        if let old { _ = replace(.retired, with: .handle(old)) }
        _ = adoptions.add(1, ordering: .releasing)
    }
}
