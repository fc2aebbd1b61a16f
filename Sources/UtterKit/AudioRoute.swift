import ALSAOutput
import AudioStream
package import Configuration

/// Where a configuration sends Utter's audio, and whether that output opens now: what `utter
/// status` reports, decided as the module decides it.
package struct AudioRoute: Sendable, Equatable {
    package enum Output: Sendable, Equatable {
        /// A sound server's own API (`library`); `pluginOf` names the server when the ALSA
        /// device asked for is that server's plugin.
        case soundServer(library: String, pluginOf: String?)
        /// An ALSA device.
        case alsa
    }

    package var output: Output
    /// Why the output does not open; nil when it does.
    package var problem: String?
}

extension SoundSession {
    /// Resolves `configuration`'s `AudioBackend` (with `alsaAsked`: an ALSA device was asked for,
    /// `device` with the ALSA configuration text `alsaText`) and opens the output once to check it.
    package static func checkRoute(
        configuration: UtterConfiguration, device: String, alsaText: String?, alsaAsked: Bool
    ) -> AudioRoute {
        let alsa = ALSADevice(name: device, configurationText: alsaText)
        let route = Route(configuration: configuration, alsaAsked: alsaAsked) { alsa }
        if let server = server(for: route.backend) {
            return AudioRoute(
                output: .soundServer(library: server.library, pluginOf: route.pluginServer),
                problem: server.probe(address: route.plugin?.address).map { "\($0)" })
        }
        return AudioRoute(output: .alsa, problem: DeviceProbe.check(alsa.identity).map(\.reason))
    }
}
