internal import CALSA

/// An ALSA device that is a sound server's plugin (`type pulse`, `type pipewire`): what a STOP
/// can do there is cut, since the plugin cannot take back what it passed on, while the server's
/// own API lets Utter fade. Read from ALSA's configuration alone: nothing is opened.
public struct SoundServerPlugin: Equatable, Sendable {
    public enum Server: String, Sendable { case pulseAudio = "PulseAudio", pipeWire = "PipeWire" }

    /// The server the plugin plays to.
    public var server: Server
    /// The plugin's `server` (PulseAudio) or `remote` (PipeWire) setting, when it names one.
    public var address: String?
    /// The plugin's `device` (PulseAudio's sink) or `playback_node` (PipeWire), when it names one.
    public var sink: String?

    public init(server: Server, address: String?, sink: String?) {
        self.server = server
        self.address = address
        self.sink = sink
    }

    /// The sound server plugin that the device `configuration` names is, following `plug`-like
    /// devices to their slave (a few levels), or nil for any other device or a name ALSA does not
    /// define. Errors are nil too: the device is then opened as an ALSA device, as before.
    public static func of(_ configuration: AudioConfiguration) -> SoundServerPlugin? {
        let previous = snd_lib_error_set_local { _, _, _, _, _, _ in }
        defer { snd_lib_error_set_local(previous) }
        var top: OpaquePointer? = nil
        var local = false
        if let text = configuration.alsaConfigText {
            guard let tree = try? PCMDevice.loadConfig(text, for: configuration.deviceName) else { return nil }
            top = tree
            local = true
        } else if snd_config_update_ref(&top) < 0 {
            return nil
        }
        guard let top else { return nil }
        defer { if local { snd_config_delete(top) } else { snd_config_unref(top) } }
        var name = configuration.deviceName
        for _ in 0..<4 {
            var definition: OpaquePointer? = nil
            guard snd_config_search_definition(top, "pcm", name, &definition) >= 0, let definition else { return nil }
            defer { snd_config_delete(definition) }
            switch string(definition, "type") {
            case "pulse":
                return SoundServerPlugin(
                    server: .pulseAudio, address: string(definition, "server"), sink: string(definition, "device"))
            case "pipewire":
                return SoundServerPlugin(
                    server: .pipeWire, address: string(definition, "server"),
                    sink: string(definition, "playback_node"))
            case "plug", "softvol", "route", "linear", "rate", "asym":
                // The slave is `slave.pcm "name"`, `slave "name"` (asym: `playback.pcm`); a compound one is left alone.
                guard let slave = string(definition, "slave.pcm") ?? string(definition, "slave") ?? string(definition, "playback.pcm")
                else { return nil }
                name = slave
            default:
                return nil
            }
        }
        return nil
    }

    private static func string(_ node: OpaquePointer, _ key: String) -> String? {
        var child: OpaquePointer? = nil
        guard snd_config_search(node, key, &child) >= 0, let child else { return nil }
        var value: UnsafePointer<CChar>? = nil
        guard snd_config_get_string(child, &value) >= 0, let value else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
