import AudioOutput
import Synchronization
import System

/// The PulseAudio backend's side of a ``StreamSink``: streams opened and closed on the synth thread,
/// played by a render thread of its own (PulseRender.swift), handed between them through mailboxes
/// as ``AudioOutput`` hands ALSA devices.
final class PulseConnection: StreamConnection {
    private let ring: SampleRing
    private let shared: RenderShared
    private let handoff = PulseHandoff()
    private let settings: PulseSettings
    private let state = Locked(State())
    private let thread = Locked<ThreadSlot>(ThreadSlot())

    struct PulseSettings: Sendable {
        var server: String?
        var sink: String?
        var sampleRate: Int
        var periodFrames: Int
        var bufferFrames: Int
    }

    private struct State {
        /// The serial of the stream installed last; 0 when none works.
        var installed: UInt64 = 0
        var nextSerial: UInt64 = 1
        var lastError: String?
    }

    private struct ThreadSlot {
        var thread: NamedThread?
        var isDone = false
    }

    init(ring: SampleRing, shared: RenderShared, settings: PulseSettings) {
        self.ring = ring
        self.shared = shared
        self.settings = settings
    }

    func start() -> String? {
        thread.withLock { slot in
            guard !slot.isDone else { return nil }
            slot.isDone = true
            let (ring, shared, handoff, settings) = (ring, shared, handoff, settings)
            do {
                slot.thread = try NamedThread(name: "utter-render") {
                    var state = PulseRenderState(
                        core: StreamRenderState(sampleRate: settings.sampleRate, historyFrames: settings.bufferFrames * 4),
                        zeroFrames: settings.bufferFrames)
                    runPulseLoop(&state, ring: ring, shared: shared, handoff: handoff)
                    finishPulseLoop(&state)
                    _ = handoff.exit.replace(with: state.stream.map { .stream($0) } ?? .empty)
                }
            } catch {
                preconditionFailure("Utter could not start the render thread (\(error))")
            }
            // The ALSA render thread's priority (see RenderThread), for the same reasons.
            guard let error = slot.thread?.setRealTimePriority(10) else { return nil }
            return
                "the render thread runs at normal priority: SCHED_FIFO was refused (\(error)); "
                + "allow it with a 'rtprio' limit in /etc/security/limits.conf for this user"
        }
    }

    func connect() throws(StreamError) {
        close(handoff.retired.replace(with: .empty))
        let installed = state.withLock { $0.installed }
        let broken = installed != 0 && handoff.broken.load(ordering: .acquiring) == installed
        guard installed == 0 || broken else { return }
        do throws(StreamError) {
            let box = UnsafeMutablePointer<PulseStream>.allocate(capacity: 1)
            do throws(StreamError) {
                box.initialize(
                    to: try PulseStream(
                        server: settings.server, sink: settings.sink, sampleRate: settings.sampleRate,
                        periodFrames: settings.periodFrames, bufferFrames: settings.bufferFrames,
                        wakeFD: shared.renderWakeFD, deadline: MonotonicClock.now + 2_000_000_000))
            } catch {
                box.deallocate()
                throw error
            }
            let serial = state.withLock { state in
                defer { state.nextSerial += 1 }
                return state.nextSerial
            }
            box.pointee.serial = serial
            // A stream installed earlier but never adopted is ours to close.
            close(handoff.install.replace(with: .stream(box)))
            state.withLock {
                $0.installed = serial
                $0.lastError = nil
            }
            wakeRenderSide()
        } catch {
            // Stop using a stream that failed: the render thread discards until one works.
            if broken { close(handoff.install.replace(with: .noStream)) }
            state.withLock {
                $0.installed = 0
                $0.lastError = error.description
            }
            wakeRenderSide()
            throw error
        }
    }

    func disconnect() -> Bool {
        close(handoff.retired.replace(with: .empty))
        let wasOpen = state.withLock { state in
            defer { state.installed = 0 }
            return state.installed != 0
        }
        guard wasOpen else { return false }
        let adoptions = handoff.adoptions.load(ordering: .acquiring)
        close(handoff.install.replace(with: .noStream))
        wakeRenderSide()
        for _ in 0..<200 where handoff.adoptions.load(ordering: .acquiring) == adoptions {
            MonotonicClock.sleep(nanoseconds: 1_000_000)
        }
        close(handoff.retired.replace(with: .empty))
        return true
    }

    func wakeRenderSide() {
        wake(shared.renderWakeFD)
    }

    func shutdown(until deadline: UInt64) -> Bool {
        let running = thread.withLock { slot in
            slot.isDone = true
            return slot.thread
        }
        if let running {
            shared.running.store(false, ordering: .releasing)
            wakeRenderSide()
            guard running.join(until: deadline) else { return false }
        }
        state.withLock { $0.installed = 0 }
        close(handoff.exit.replace(with: .empty))
        close(handoff.install.replace(with: .empty))
        close(handoff.retired.replace(with: .empty))
        return true
    }

    var lastFailure: String? {
        let code = shared.lastFailureCode.load(ordering: .relaxed)
        return state.withLock { $0.lastError } ?? "the sound server connection failed (\(PulseStream.describe(code)))"
    }

    /// Closes the stream `content` holds, if any; never on the render thread.
    private func close(_ content: PulseMailbox.Content) {
        guard case .stream(let box) = content else { return }
        box.deinitialize(count: 1)
        box.deallocate()
    }
}
