package import AudioOutput
package import Configuration
import PulseOutput
package import System

/// The sound server of the user's session, and the sinks that play through it.
package enum SoundSession {
    /// Whether a PulseAudio-protocol server (PulseAudio, or PipeWire's pipewire-pulse) is there to
    /// answer, found as libpulse finds it: `PULSE_SERVER`, else the socket in the runtime folder.
    package static var hasPulseServer: Bool {
        if let server = Environment.value("PULSE_SERVER"), !server.isEmpty { return true }
        guard let runtime = Environment.value("XDG_RUNTIME_DIR"), !runtime.isEmpty else { return false }
        return FileSystem.exists(runtime + "/pulse/native")
    }

    /// What `backend` means here: `auto` is ALSA when an ALSA device was asked for (`alsaAsked`),
    /// else the PulseAudio protocol when a server answers, else ALSA.
    package static func resolve(_ backend: AudioBackend, alsaAsked: Bool) -> AudioBackend {
        guard backend == .auto else { return backend }
        return !alsaAsked && hasPulseServer ? .pulse : .alsa
    }

    /// A sink on the session's PulseAudio-protocol server, with utter.conf's period and buffer.
    package static func pulseSink(
        configuration: UtterConfiguration, sampleRate: Int, wake: EventFD, server: String? = nil
    ) throws(StreamError) -> StreamSink {
        let period = max(32, sampleRate * configuration.periodMilliseconds / 1000)
        return try PulseOutput.sink(
            sampleRate: sampleRate, periodFrames: period, bufferFrames: period * configuration.bufferPeriods,
            server: server, controlWake: wake)
    }
}
