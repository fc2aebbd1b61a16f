import ALSAOutput
import Testing

/// ALSA configuration text with the devices each case names.
private let devices = """
    pcm.speakers { type pulse server "unix:/run/user/1000/pulse/native" device "alsa_output.speakers" }
    pcm.bare { type pulse }
    pcm.graph { type pipewire server "pipewire-0" playback_node "speakers" }
    pcm.converted { type plug slave.pcm "speakers" }
    pcm.twice { type softvol slave { pcm "converted" } control.name "Utter" }
    pcm.split { type asym playback.pcm "graph" capture.pcm "bare" }
    pcm.card { type hw card 0 }
    pcm.capture { type file slave.pcm "nothing" file "/tmp/x.raw" }
    pcm.nothing { type null }
    pcm.loop1 { type plug slave.pcm "loop2" }
    pcm.loop2 { type plug slave.pcm "loop1" }

    """

private func plugin(_ device: String) -> SoundServerPlugin? {
    SoundServerPlugin.of(AudioConfiguration(deviceName: device, alsaConfigText: devices))
}

@Test func `a pulse device is PulseAudio's plugin, with the server and sink it names`() {
    #expect(
        plugin("speakers")
            == SoundServerPlugin(
                server: .pulseAudio, address: "unix:/run/user/1000/pulse/native", sink: "alsa_output.speakers"))
    #expect(plugin("bare") == SoundServerPlugin(server: .pulseAudio, address: nil, sink: nil))
}

@Test func `a pipewire device is PipeWire's plugin`() {
    #expect(plugin("graph") == SoundServerPlugin(server: .pipeWire, address: "pipewire-0", sink: "speakers"))
}

@Test func `converting devices are followed to the plugin behind them`() {
    #expect(plugin("converted")?.server == .pulseAudio)
    #expect(plugin("twice")?.sink == "alsa_output.speakers")
    #expect(plugin("split")?.server == .pipeWire)
}

@Test func `other devices, unknown names, loops and bad text are no plugin`() {
    #expect(plugin("card") == nil)
    #expect(plugin("capture") == nil)
    #expect(plugin("no_such_device") == nil)
    #expect(plugin("loop1") == nil)
    #expect(SoundServerPlugin.of(AudioConfiguration(deviceName: "speakers", alsaConfigText: "pcm.speakers { type")) == nil)
}
