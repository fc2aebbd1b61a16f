public import AudioStream
public import System

/// Speech played through PipeWire's native API (libpipewire-0.3), not through an ALSA plugin or
/// PulseAudio's protocol: the server pulls samples on its own real-time thread.
///
/// `AudioBackend pipewire`. libpipewire is opened when the first stream is made (dlopen), through
/// `CPipeWireShims`, which wraps SPA's and the loop's inline helpers. The stream's process
/// callback, on PipeWire's data thread, pulls from the ring through AudioStream's render core
/// (``PipeWireRenderSide``, checked `@_noLocks`); it asks for a quantum of one period, never
/// under 10 ms. A STOP lets the quantum already handed over play and fades out over 4 ms after
/// it. The stream is kept between messages but made inactive after 50 ms of silence, so an idle
/// module has no wakeups and the next message starts on a warm stream (``PipeWireConnection``).
/// When the server dies the failure is counted and a timer discards the ring, every frame counted
/// as heard (positions and events still complete), until the next message reconnects.
public enum PipeWireOutput {
    /// A sink playing Int16 mono at `sampleRate` through PipeWire at `remote` (a socket path or a
    /// remote name; nil: the session's), asking for a quantum of `periodFrames` (at least 10 ms),
    /// with a ring of `ringCapacity` frames (a power of two). Connects at the first job.
    public static func sink(
        sampleRate: Int, periodFrames: Int, ringCapacity: Int, remote: String?, controlWake: EventFD
    ) throws(StreamError) -> StreamSink {
        // A full ring is looked at every 50 ms (or when a job comes): the graph's cycles take the frames.
        try StreamSink(
            sampleRate: sampleRate, ringCapacity: ringCapacity, fullRingWait: 50_000_000, controlWake: controlWake
        ) {
            ring, shared, _ throws(StreamError) in
            try PipeWireConnection(
                ring: ring, shared: shared, sampleRate: sampleRate, periodFrames: periodFrames, remote: remote)
        }
    }
}

extension PipeWireOutput: SoundServerBackend {
    package static let name = "pipewire"
    package static let library = "libpipewire"

    /// Whether a PipeWire server's socket is there, found as libpipewire finds it:
    /// `PIPEWIRE_REMOTE`, else `pipewire-0` in `PIPEWIRE_RUNTIME_DIR` or the runtime folder.
    package static var isPresent: Bool {
        if let remote = Environment.value("PIPEWIRE_REMOTE"), !remote.isEmpty { return true }
        for variable in ["PIPEWIRE_RUNTIME_DIR", "XDG_RUNTIME_DIR"] {
            if let folder = Environment.value(variable), !folder.isEmpty {
                return FileSystem.exists(folder + "/pipewire-0")
            }
        }
        return false
    }

    /// (PipeWire plays to its default node: `request.sink` is not followed.)
    package static func makeSink(_ request: SinkRequest) throws(StreamError) -> StreamSink {
        try sink(
            sampleRate: request.sampleRate, periodFrames: request.periodFrames, ringCapacity: request.ringCapacity,
            remote: request.address, controlWake: request.controlWake)
    }

    package static func probe(address: String?) -> StreamError? {
        probeWithSink(address: address)
    }
}
