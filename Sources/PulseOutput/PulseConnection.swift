import AudioStream
import Synchronization
import System

/// The PulseAudio backend's side of a ``StreamSink``: streams opened and closed on the synth thread,
/// played by a render thread of its own (PulseRender.swift), handed between them through a
/// ``Handoff`` as the ALSA backend hands devices.
final class PulseConnection: StreamConnection {
    private let ring: SampleRing
    private let shared: RenderShared
    private let handoff = Handoff<PulseStream>()
    private let settings: PulseSettings
    private let state = Locked(State())
    private let thread: RenderThread

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

    init(ring: SampleRing, shared: RenderShared, settings: PulseSettings) {
        self.ring = ring
        self.shared = shared
        self.settings = settings
        thread = RenderThread(shared: shared)
    }

    func start() -> String? {
        let (ring, shared, handoff, settings) = (ring, shared, handoff, settings)
        return thread.start {
            var state = PulseRenderState(
                core: StreamRenderState(sampleRate: settings.sampleRate, historyFrames: settings.bufferFrames * 4),
                zeroFrames: settings.bufferFrames)
            runPulseLoop(&state, ring: ring, shared: shared, handoff: handoff.slots)
            finishPulseLoop(&state)
            _ = handoff.replace(.exit, with: state.stream.map { .handle($0) } ?? .empty)
        }
    }

    func connect() throws(StreamError) {
        handoff.closeRetired()
        let installed = state.withLock { $0.installed }
        let broken = installed != 0 && shared.brokenSerial.load(ordering: .acquiring) == installed
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
            handoff.install(.handle(box))
            state.withLock {
                $0.installed = serial
                $0.lastError = nil
            }
            wakeRenderSide()
        } catch {
            // Stop using a stream that failed: the render thread discards until one works.
            if broken { handoff.install(.none) }
            state.withLock {
                $0.installed = 0
                $0.lastError = error.description
            }
            wakeRenderSide()
            throw error
        }
    }

    func disconnect() -> Bool {
        handoff.closeRetired()
        let wasOpen = state.withLock { state in
            defer { state.installed = 0 }
            return state.installed != 0
        }
        guard wasOpen else { return false }
        handoff.withdraw { wakeRenderSide() }
        return true
    }

    func wakeRenderSide() {
        shared.wakeRender()
    }

    func shutdown(until deadline: UInt64) -> Bool {
        guard thread.stop(until: deadline) else { return false }
        state.withLock { $0.installed = 0 }
        return handoff.closeAll(until: deadline)
    }

    var lastFailure: String? {
        let code = shared.lastFailureCode.load(ordering: .relaxed)
        return state.withLock { $0.lastError } ?? "the sound server connection failed (\(PulseStream.describe(code)))"
    }
}
