import ALSAOutput
import AudioStream
package import Configuration
package import Logging

/// An ALSA device as a front end names it: the PCM name, and the ALSA configuration text it is
/// looked up in (nil: ALSA's own configuration).
package struct ALSADevice: Sendable, Equatable {
    package var name: String
    package var configurationText: String?

    package init(name: String, configurationText: String?) {
        self.name = name
        self.configurationText = configurationText
    }

    /// The device at `sampleRate`, with `configuration`'s period and buffer.
    func audioConfiguration(sampleRate: Int, configuration: UtterConfiguration) -> AudioConfiguration {
        let periodFrames = max(32, sampleRate * configuration.periodMilliseconds / 1000)
        return AudioConfiguration(
            deviceName: name, alsaConfigText: configurationText, sampleRate: sampleRate, periodFrames: periodFrames,
            bufferFrames: periodFrames * configuration.bufferPeriods)
    }

    /// Enough of the device to tell what it is: sound server plugins are read from these two.
    var identity: AudioConfiguration {
        AudioConfiguration(deviceName: name, alsaConfigText: configurationText)
    }
}

extension SoundSession {
    /// Where speech plays: a backend (resolved, never `auto`) and, when that backend stands in for
    /// ALSA's device, the sound server plugin the device is.
    package struct Route: Sendable, Equatable {
        package let backend: AudioBackend
        let plugin: SoundServerPlugin?

        /// The route `configuration`'s `AudioBackend` takes (`alsaAsked`: an ALSA device was asked
        /// for): ``SoundSession/resolve(_:alsaAsked:)``, and for `auto` with an ALSA device asked
        /// for, ``init(forALSA:)`` on the device `alsa` reads (read only then).
        package init(configuration: UtterConfiguration, alsaAsked: Bool, alsa: () -> ALSADevice) {
            if configuration.audioBackend == .auto && alsaAsked {
                (backend, plugin) = SoundSession.route(forALSA: alsa().identity)
            } else {
                backend = SoundSession.resolve(configuration.audioBackend, alsaAsked: alsaAsked)
                plugin = nil
            }
        }

        /// Where `AudioBackend auto` plays the ALSA device `device` (``SoundSession/route(forALSA:)``).
        package init(forALSA device: ALSADevice) {
            (backend, plugin) = SoundSession.route(forALSA: device.identity)
        }

        /// The sound server whose plugin ALSA's device is, when the route stands in for one.
        package var pluginServer: String? { plugin?.server.rawValue }

        /// Where the route plays: its sound server, at the address and on the sink of the plugin it
        /// stands in for; or the ALSA device `alsa` reads (read only then).
        package func output(alsa: () -> ALSADevice) -> SoundOutput {
            backend == .alsa ? .alsa(alsa()) : .soundServer(backend, address: plugin?.address, sink: plugin?.sink)
        }

        /// The client library of the route's sound server (`libpulse`); nil when it plays ALSA's device.
        package var library: String? { SoundSession.server(for: backend)?.library }

        /// Why the route's output does not open now (it is opened once and closed: the server, or
        /// ALSA's device `alsa`), or nil when it does: what `utter status` reports.
        package func problem(alsa: ALSADevice) -> String? {
            if let server = SoundSession.server(for: backend) {
                return server.probe(address: plugin?.address).map { "\($0)" }
            }
            return DeviceProbe.check(alsa.identity).map(\.reason)
        }

        /// Says in `logger` that the route plays ALSA's device `device` through its server's own
        /// API, and what of the plugin it does not follow; nothing when there is no plugin.
        package func logPlugin(device: @autoclosure () -> String, to logger: Logger) {
            guard let plugin else { return }
            let device = device()
            var location = plugin.address.map { " at \($0)" } ?? ""
            if let sink = plugin.sink { location += ", \(plugin.server == .pulseAudio ? "sink" : "node") \(sink)" }
            logger.notice(
                "audio backend: \(backend.rawValue), for ALSA's device '\(device)', which is \(plugin.server.rawValue)'s plugin\(location) (AudioBackend auto: a STOP fades there, through the plugin it would cut)"
            )
            if plugin.server == .pipeWire && plugin.sink != nil {
                logger.warning(
                    "the plugin's playback_node \(plugin.sink!) is not followed: Utter plays to PipeWire's default")
            }
        }
    }
}
