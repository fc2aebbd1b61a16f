public import AudioStream
public import System

/// Playback through a PulseAudio-protocol server (PulseAudio, or PipeWire's pipewire-pulse) with
/// libpulse's native API: a stream kept corked in silence, flushed with a fade on STOP.
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
        try StreamSink(sampleRate: sampleRate, ringCapacity: ringCapacity, controlWake: controlWake) {
            ring, shared, _ in
            PulseConnection(
                ring: ring, shared: shared,
                settings: .init(
                    server: server, sink: sink, sampleRate: sampleRate, periodFrames: periodFrames,
                    bufferFrames: bufferFrames))
        }
    }
}
