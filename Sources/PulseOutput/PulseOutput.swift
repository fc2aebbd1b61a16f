public import AudioStream
public import System

/// Playback through a PulseAudio-protocol server (PulseAudio, or PipeWire's pipewire-pulse) with
/// libpulse's native API (`AudioBackend pulse`): a libpulse stream played by a render thread of its
/// own, which runs the stream's main loop and answers the server from the sample ring on
/// AudioStream's render core (PulseRender.swift).
///
/// In silence the stream is corked: no wakeups, and the next word starts on the same stream.
/// While sound plays the render thread wakes at the server's requests (on PulseAudio a quarter of
/// its buffer) and asks where the server reads every other one (``PulseStream/timingFrames``).
///
/// A STOP is not a flush: its 4 ms fade is written over the queued frames in place, from the
/// first frame the server has surely not read, then silence, so the fade continues the sound
/// exactly wherever playback is; the next sound is written over that silence
/// (``PulseRenderState``). Where the server reads, and the position heard that times marks, come
/// from its last timing reply moved on by the time since, never from libpulse's interpolated
/// clock, which can stay frozen for seconds on a new stream; a STOP that finds no recent reply
/// taken while the stream plays asks for one and waits for it, a few milliseconds, rather than
/// guess. On a sink known to rewind the fade starts where the listener is; on pipewire-pulse,
/// which does not rewind, past what its graph may already have taken (`firstUnreadFrame`).
///
/// A server that dies is reconnected to at the next message; one that hangs holds no thread
/// (libpulse never waits for it).
public enum PulseOutput {
    /// Whether a playback stream opens on `server` (nil: the session's): the error if not.
    /// Connects, sets up a corked stream and closes it again, within two seconds.
    public static func probe(server: String? = nil, sampleRate: Int = 22050) -> StreamError? {
        do {
            _ = try PulseStream(
                server: server, sink: nil, sampleRate: sampleRate, periodFrames: sampleRate / 100,
                bufferFrames: sampleRate / 100 * 8, wakeFD: -1, deadline: MonotonicClock.now + 2_000_000_000)
            return nil
        } catch {
            return error
        }
    }

    /// A sink playing 16-bit mono at `sampleRate` on `server` (nil: the session's, as libpulse
    /// finds it: `PULSE_SERVER`, then the user's runtime folder) and `sink` (nil: the default),
    /// asking for `periodFrames` at a time with `bufferFrames` buffered in the server. It connects
    /// at its first job (or ``StreamSink/prepare()``).
    public static func sink(
        sampleRate: Int, periodFrames: Int, bufferFrames: Int, ringCapacity: Int = 1 << 17, server: String? = nil,
        sink: String? = nil, controlWake: EventFD
    ) throws(StreamError) -> StreamSink {
        // The ring holds seconds: the synth thread waits 50 ms for room at a time. The server asks
        // again whenever the render thread handed over less than it had, so with twice the
        // server's buffer in the ring a write need not wake it.
        try StreamSink(
            sampleRate: sampleRate, ringCapacity: ringCapacity, fullRingWait: 50_000_000, quietAbove: 2 * bufferFrames,
            controlWake: controlWake
        ) {
            ring, shared, _ in
            PulseConnection(
                ring: ring, shared: shared,
                settings: .init(
                    server: server, sink: sink, sampleRate: sampleRate, periodFrames: periodFrames,
                    bufferFrames: bufferFrames))
        }
    }
}

extension PulseOutput: SoundServerBackend {
    package static let name = "pulse"
    package static let library = "libpulse"

    /// Whether a PulseAudio-protocol server (PulseAudio, or PipeWire's pipewire-pulse) is there to
    /// answer, found as libpulse finds it: `PULSE_SERVER`, else the socket in the runtime folder.
    package static var isPresent: Bool {
        if let server = Environment.value("PULSE_SERVER"), !server.isEmpty { return true }
        guard let runtime = Environment.value("XDG_RUNTIME_DIR"), !runtime.isEmpty else { return false }
        return FileSystem.exists(runtime + "/pulse/native")
    }

    package static func makeSink(_ request: SinkRequest) throws(StreamError) -> StreamSink {
        try sink(
            sampleRate: request.sampleRate, periodFrames: request.periodFrames, bufferFrames: request.bufferFrames,
            ringCapacity: request.ringCapacity, server: request.address, sink: request.sink,
            controlWake: request.controlWake)
    }

    package static func probe(address: String?) -> StreamError? {
        probe(server: address)
    }
}
