package import ALSAOutput
package import AudioStream
package import Configuration
import PipeWireOutput
import PulseOutput
package import System

/// The sound server of the user's session, and the sinks that play through it.
package enum SoundSession {
    /// The sound servers' native backends, in the order `AudioBackend auto` tries them. A new one
    /// is its target, a line here and its name in Configuration's `AudioBackend`.
    package static let servers: [any SoundServerBackend.Type] = [PipeWireOutput.self, PulseOutput.self]

    /// The server backend `backend` names; nil for ALSA (and `auto`, which is resolved first).
    package static func server(for backend: AudioBackend) -> (any SoundServerBackend.Type)? {
        servers.first { $0.name == backend.rawValue }
    }

    /// What `backend` means here: `auto` is ALSA when an ALSA device was asked for (`alsaAsked`),
    /// else PipeWire when its socket is there, else the PulseAudio protocol when a server
    /// answers, else ALSA.
    package static func resolve(_ backend: AudioBackend, alsaAsked: Bool) -> AudioBackend {
        guard backend == .auto else { return backend }
        if alsaAsked { return .alsa }
        for server in servers where server.isPresent {
            if let present = AudioBackend(rawValue: server.name) { return present }
        }
        return .alsa
    }

    /// Where `AudioBackend auto` plays the ALSA device `alsa` names: when the device is a sound
    /// server's plugin and that server is there, through the server's own API, where a STOP fades
    /// (through the plugin it cuts mid-waveform: the plugin cannot take back what it passed on), on
    /// the server and sink the plugin names; else through ALSA.
    package static func route(forALSA alsa: AudioConfiguration) -> (AudioBackend, SoundServerPlugin?) {
        guard let plugin = SoundServerPlugin.of(alsa) else { return (.alsa, nil) }
        switch plugin.server {
        case .pulseAudio where plugin.address != nil || PulseOutput.isPresent: return (.pulse, plugin)
        case .pipeWire where plugin.address != nil || PipeWireOutput.isPresent: return (.pipewire, plugin)
        default: return (.alsa, nil)
        }
    }

    /// A sink on `server`'s backend at `address` (nil: the session's server) and `sink` (nil: its
    /// default), with utter.conf's period (the quantum) and buffer.
    package static func sink(
        on server: any SoundServerBackend.Type, configuration: UtterConfiguration, sampleRate: Int, wake: EventFD,
        address: String? = nil, sink: String? = nil
    ) throws(StreamError) -> StreamSink {
        let period = max(32, sampleRate * configuration.periodMilliseconds / 1000)
        return try server.makeSink(
            SinkRequest(
                sampleRate: sampleRate, periodFrames: period, bufferFrames: period * configuration.bufferPeriods,
                address: address, sink: sink, controlWake: wake))
    }
}
