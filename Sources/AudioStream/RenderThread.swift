import Synchronization
import System

/// A backend's render thread: started once, at a modest real-time priority, and stopped with a
/// deadline through ``RenderShared/running``. What it runs is the backend's loop.
package final class RenderThread: Sendable {
    private let shared: RenderShared
    private let slot = Locked<Slot>(Slot())

    private struct Slot {
        var thread: NamedThread?
        /// Set by the first start or stop: the thread never starts after a stop.
        var isDone = false
    }

    package init(shared: RenderShared) {
        self.shared = shared
    }

    /// Starts `loop` on a thread named "utter-render"; calling it again does nothing. Returns why
    /// it could not get real-time priority (`SCHED_FIFO`), for the caller to log once, or nil.
    /// Without it the thread still works, at normal priority, and a busy machine may cause underruns.
    package func start(_ loop: @escaping @Sendable () -> Void) -> String? {
        slot.withLock { slot in
            guard !slot.isDone else { return nil }
            slot.isDone = true
            let thread: NamedThread
            do {
                thread = try NamedThread(name: "utter-render", loop)
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

    /// Ends the loop and waits for the thread until `deadline`; false if it is still blocked then
    /// (a device or a sound server that hangs), in which case what it holds stays its own.
    package func stop(until deadline: UInt64) -> Bool {
        let thread = slot.withLock { slot in
            slot.isDone = true
            return slot.thread
        }
        guard let thread else { return true }
        shared.running.store(false, ordering: .releasing)
        shared.wakeRender()
        return thread.join(until: deadline)
    }
}
