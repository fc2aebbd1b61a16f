package import ALSAOutput
package import AudioSinks
package import AudioStream
package import Configuration
import PipeWireOutput
import PulseOutput
import SoundFiles
package import System

/// The sound server of the user's session, and the sinks that play through it.
package enum SoundSession {
    /// The sound servers' native backends, in the order `AudioBackend auto` tries them, each with
    /// the server whose ALSA plugin it plays in place of (nil: none). The one place a backend is
    /// named: a new one is its target, a line here and its name in Configuration's `AudioBackend`.
    package static let servers: [(backend: any SoundServerBackend.Type, plugin: SoundServerPlugin.Server?)] = [
        (PipeWireOutput.self, .pipeWire), (PulseOutput.self, .pulseAudio),
    ]

    /// The server backend `backend` names; nil for ALSA (and `auto`, which is resolved first).
    package static func server(for backend: AudioBackend) -> (any SoundServerBackend.Type)? {
        servers.first { $0.backend.name == backend.rawValue }?.backend
    }

    /// What `backend` means here: `auto` is ALSA when an ALSA device was asked for (`alsaAsked`),
    /// else PipeWire when its socket is there, else the PulseAudio protocol when a server
    /// answers, else ALSA.
    package static func resolve(_ backend: AudioBackend, alsaAsked: Bool) -> AudioBackend {
        guard backend == .auto else { return backend }
        if alsaAsked { return .alsa }
        for (server, _) in servers where server.isPresent {
            if let present = AudioBackend(rawValue: server.name) { return present }
        }
        return .alsa
    }

    /// Where `AudioBackend auto` plays the ALSA device `alsa` names: when the device is a sound
    /// server's plugin and that server is there, through the server's own API, where a STOP fades
    /// (through the plugin it cuts mid-waveform: the plugin cannot take back what it passed on), on
    /// the server and sink the plugin names; else through ALSA.
    package static func route(forALSA alsa: AudioConfiguration) -> (AudioBackend, SoundServerPlugin?) {
        guard let plugin = SoundServerPlugin.of(alsa),
            let server = servers.first(where: { $0.plugin == plugin.server })?.backend,
            plugin.address != nil || server.isPresent, let backend = AudioBackend(rawValue: server.name)
        else { return (.alsa, nil) }
        return (backend, plugin)
    }

    /// The sink playing or writing to `output` at `sampleRate`, with utter.conf's period (a sound
    /// server's quantum) and buffer; it opens at its first job (or ``SampleSink/prepare()``).
    package static func sink(
        for output: SoundOutput, configuration: UtterConfiguration, sampleRate: Int, wake: EventFD
    ) throws -> any SampleSink {
        switch output {
        case .alsa(let device):
            return try ALSASink(
                configuration: device.audioConfiguration(sampleRate: sampleRate, configuration: configuration),
                controlWake: wake)
        case .soundServer(let backend, let address, let sink):
            do throws(StreamError) {
                guard let server = server(for: backend) else {
                    throw StreamError("no sound server plays through AudioBackend \(backend.rawValue)")
                }
                let period = max(32, sampleRate * configuration.periodMilliseconds / 1000)
                let buffer = period * configuration.bufferPeriods
                return try server.makeSink(
                    SinkRequest(
                        sampleRate: sampleRate, periodFrames: period, bufferFrames: buffer, address: address,
                        sink: sink, controlWake: wake))
            } catch {
                throw SoundOutput.Failure.unavailable(reason: "\(error)")
            }
        case .file(let path):
            do throws(SoundFileError) {
                return RenderedSink(
                    store: try SoundFileStore(path: path, sampleRate: sampleRate), sampleRate: sampleRate, wake: wake)
            } catch {
                throw SoundOutput.Failure.fileNotWritable(reason: error.reason)
            }
        }
    }
}

/// Where speech is heard, or written.
package enum SoundOutput: Sendable, Equatable {
    /// An ALSA device.
    case alsa(ALSADevice)
    /// The sound server backend `AudioBackend` names (one of ``SoundSession/servers``), at
    /// `address` (nil: the session's server), on `sink` (nil: its default).
    case soundServer(AudioBackend, address: String? = nil, sink: String? = nil)
    /// A sound file (WAV, FLAC, Ogg… by its name), written as fast as the engine goes.
    case file(path: String)

    /// Why an output cannot be played or written, said for the user.
    package enum Failure: Error, CustomStringConvertible {
        /// The device or sound server does not open.
        case unavailable(reason: String)
        /// The sound file cannot be created.
        case fileNotWritable(reason: String)

        package var description: String {
            switch self {
            case .unavailable(let reason), .fileNotWritable(let reason): reason
            }
        }
    }
}
