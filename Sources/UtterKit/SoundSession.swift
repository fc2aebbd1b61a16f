package import ALSAOutput
package import AudioStream
package import Configuration
import PipeWireOutput
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

    /// Whether a PipeWire server's socket is there, found as libpipewire finds it:
    /// `PIPEWIRE_REMOTE`, else `pipewire-0` in `PIPEWIRE_RUNTIME_DIR` or the runtime folder.
    package static var hasPipeWire: Bool {
        if let remote = Environment.value("PIPEWIRE_REMOTE"), !remote.isEmpty { return true }
        for variable in ["PIPEWIRE_RUNTIME_DIR", "XDG_RUNTIME_DIR"] {
            if let folder = Environment.value(variable), !folder.isEmpty {
                return FileSystem.exists(folder + "/pipewire-0")
            }
        }
        return false
    }

    /// What `backend` means here: `auto` is ALSA when an ALSA device was asked for (`alsaAsked`),
    /// else PipeWire when its socket is there, else the PulseAudio protocol when a server
    /// answers, else ALSA.
    package static func resolve(_ backend: AudioBackend, alsaAsked: Bool) -> AudioBackend {
        guard backend == .auto else { return backend }
        if alsaAsked { return .alsa }
        if hasPipeWire { return .pipewire }
        return hasPulseServer ? .pulse : .alsa
    }

    /// Where `AudioBackend auto` plays the ALSA device `alsa` names: when the device is a sound
    /// server's plugin and that server is there, through the server's own API, where a STOP fades
    /// (through the plugin it cuts mid-waveform: the plugin cannot take back what it passed on), on
    /// the server and sink the plugin names; else through ALSA.
    package static func route(forALSA alsa: AudioConfiguration) -> (AudioBackend, SoundServerPlugin?) {
        guard let plugin = SoundServerPlugin.of(alsa) else { return (.alsa, nil) }
        switch plugin.server {
        case .pulseAudio where plugin.address != nil || hasPulseServer: return (.pulse, plugin)
        case .pipeWire where plugin.address != nil || hasPipeWire: return (.pipewire, plugin)
        default: return (.alsa, nil)
        }
    }

    /// A sink on the session's PipeWire (or `remote`), with utter.conf's period as its quantum.
    package static func pipeWireSink(
        configuration: UtterConfiguration, sampleRate: Int, wake: EventFD, remote: String? = nil
    ) throws(StreamError) -> StreamSink {
        let period = max(32, sampleRate * configuration.periodMilliseconds / 1000)
        return try PipeWireOutput.sink(
            sampleRate: sampleRate, periodFrames: period, ringCapacity: 1 << 17, remote: remote, controlWake: wake)
    }

    /// A sink on the session's PulseAudio-protocol server, with utter.conf's period and buffer.
    package static func pulseSink(
        configuration: UtterConfiguration, sampleRate: Int, wake: EventFD, server: String? = nil, sink: String? = nil
    ) throws(StreamError) -> StreamSink {
        let period = max(32, sampleRate * configuration.periodMilliseconds / 1000)
        return try PulseOutput.sink(
            sampleRate: sampleRate, periodFrames: period, bufferFrames: period * configuration.bufferPeriods,
            server: server, sink: sink, controlWake: wake)
    }
}
