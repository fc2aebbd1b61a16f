public import AudioStream
public import System

/// Speech played through PipeWire's native API (libpipewire-0.3), not through an ALSA plugin or
/// PulseAudio's protocol: the server pulls samples on its own real-time thread.
public enum PipeWireOutput {
    /// A sink playing Int16 mono at `sampleRate` through PipeWire at `remote` (a socket path or a
    /// remote name; nil: the session's), asking for a quantum of `periodFrames` (at least 10 ms),
    /// with a ring of `ringCapacity` frames (a power of two). Connects at the first job.
    public static func sink(
        sampleRate: Int, periodFrames: Int, ringCapacity: Int, remote: String?, controlWake: EventFD
    ) throws(StreamError) -> StreamSink {
        try StreamSink(sampleRate: sampleRate, ringCapacity: ringCapacity, controlWake: controlWake) {
            ring, shared, _ throws(StreamError) in
            try PipeWireConnection(
                ring: ring, shared: shared, sampleRate: sampleRate, periodFrames: periodFrames, remote: remote)
        }
    }
}
