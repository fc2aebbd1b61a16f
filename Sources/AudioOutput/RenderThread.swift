import Synchronization
import System

/// The render thread's life: started once, at a modest real-time priority, and stopped with a
/// deadline. What it runs is `runRenderLoop` (RenderLoop.swift); this type only starts and joins it.
final class RenderThread: Sendable {
    private let ring: SampleRing
    private let shared: RenderShared
    private let slot = Locked<Slot>(Slot())

    private struct Slot {
        var thread: NamedThread?
        /// Set by the first start or stop: the thread never starts after a stop.
        var isDone = false
    }

    init(ring: SampleRing, shared: RenderShared) {
        self.ring = ring
        self.shared = shared
    }

    /// Starts the thread, named "utter-render"; calling it again does nothing. Returns why it could
    /// not get real-time priority (`SCHED_FIFO`), for the caller to log once, or nil.
    func start() -> String? {
        slot.withLock { slot in
            guard !slot.isDone else { return nil }
            slot.isDone = true
            let (ring, shared) = (ring, shared)
            let thread: NamedThread
            do {
                thread = try NamedThread(name: "utter-render") {
                    var state = RenderState()
                    runRenderLoop(&state, ring: ring, shared: shared)
                    shared.exitMailbox.put(state.device.map { .device($0) } ?? .empty)
                }
            } catch {
                // Only fails when the system is out of threads or memory, at startup.
                preconditionFailure("Utter could not start the render thread (\(error))")
            }
            slot.thread = thread
            // A modest real-time priority: above every normal thread, below the kernel's audio
            // and IRQ threads (50) and PipeWire/PulseAudio's own (rtkit gives them 20).
            guard let error = thread.setRealTimePriority(10) else { return nil }
            return
                "the render thread runs at normal priority: SCHED_FIFO was refused (\(error)); "
                + "allow it with a 'rtprio' limit in /etc/security/limits.conf for this user"
        }
    }

    /// Ends the loop and waits for the thread until `deadline`; false if it is still blocked on
    /// the device then (a sound server that hangs), in which case the device stays its own.
    func stop(until deadline: UInt64) -> Bool {
        let thread = slot.withLock { slot in
            slot.isDone = true
            return slot.thread
        }
        guard let thread else { return true }
        shared.running.store(false, ordering: .releasing)
        wake(shared.renderWakeFD)
        return thread.join(until: deadline)
    }
}
