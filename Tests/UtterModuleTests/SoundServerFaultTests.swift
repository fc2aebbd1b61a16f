import Glibc
import TestSupport
import Testing

/// A private sound server for `rig`, and the module playing through it, warmed up with one message.
private func startModuleOnServer(
    _ rig: borrowing CaptureRig, _ kind: SoundServerKind, _ path: PlaybackPath
) throws -> (PrivateSoundServer, ModuleProcess) {
    let pulse = try PrivateSoundServer(runtime: rig.folder + "/pulse", kind: kind)
    let module = try startPacedModule(rig, pulse: pulse, configuration: "", path: path)
    speak(module, "<speak>A warm-up for the sound server.</speak>")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    return (pulse, module)
}

/// One server at a time: two sound servers and their modules starting together on a busy machine
/// (the whole suite runs in parallel) slowed each case past its limit in CI.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct SoundServerFaultTests {
    @Test(arguments: serverPaths)
    func `the sound server dying mid-message ends it validly, and its return is picked up`(
        server: SoundServerKind, path: PlaybackPath
    ) throws {
        let rig = CaptureRig()
        let (pulse, module) = try startModuleOnServer(rig, server, path)

        speak(
            module,
            "<speak>" + String(repeating: "This long message is cut off when the sound server dies. ", count: 10)
                + "</speak>")
        #expect(module.expect("701 BEGIN\n") == "701 BEGIN\n")
        pulse.kill()
        #expect(module.expect("702 END\n", within: 30) == "702 END\n", "the message still ends")
        speak(module, "<speak>Nobody hears this.</speak>")
        #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")

        try pulse.start()
        speak(module, "<speak>The sound server is back.</speak>")
        #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n", "\(rig.log.suffix(3000))")
        #expect(module.quit() == 0)
        let log = rig.log
        #expect(log.contains("audio device failed"), "the failure is logged: \(log.suffix(1500))")
        switch path {
        case .alsaPlugin:
            #expect(log.contains("could not open the device on 'utter_paced'"), "the failed reopen is logged")
        case .pulse:
            #expect(log.contains("cannot connect to the session's sound server"), "the failed reconnection is logged")
        case .pipewire:
            #expect(log.contains("cannot connect to the PipeWire server"), "the failed reconnection is logged")
        }
    }

    /// With a message, the render thread is held by the frozen server at the STOP. Without one it
    /// is idle and closing the device is what meets the server (alsa-lib stops a stream before it
    /// closes it, and the PulseAudio plugin waits for the server to confirm the stop): seen in CI
    /// when the STOP came before the message reached the device.
    @Test(arguments: serverPaths.flatMap { server, path in [true, false].map { (server, path, $0) } })
    func `a sound server that hangs cannot hold the module: STOP is answered and QUIT exits`(
        server: SoundServerKind, path: PlaybackPath, speaking: Bool
    ) throws {
        let rig = CaptureRig()
        let (pulse, module) = try startModuleOnServer(rig, server, path)
        pulse.freeze()
        defer { pulse.thaw() }
        if speaking {
            speak(module, "<speak>" + String(repeating: "Nobody hears this message. ", count: 10) + "</speak>")
            module.send("STOP\n")
            let events = try #require(module.expect("703 STOP\n"))
            #expect(events == "703 STOP\n" || events == "701 BEGIN\n703 STOP\n")
        }
        // Within the second speech-dispatcher waits before it kills a module; it used to wait for good.
        #expect(module.quit() == 0)
        switch path {
        case .alsaPlugin:
            // The plugin's write or close blocks on the frozen server: the module leaves without that thread.
            #expect(rig.log.contains("still in an audio device or engine call after 500 ms"), "\(rig.log)")
        case .pulse, .pipewire:
            // Neither libpulse nor libpipewire waits for the server: every thread stops at once.
            #expect(!rig.log.contains("still in an audio device"), "\(rig.log)")
        }
    }
}
