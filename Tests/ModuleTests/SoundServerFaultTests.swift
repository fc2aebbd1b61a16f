import Glibc
import TestSupport
import Testing

/// A private sound server for `rig`, and the module playing through it, warmed up with one message.
private func startModuleOnServer(
    _ rig: borrowing CaptureRig, _ kind: SoundServerKind
) throws -> (PrivateSoundServer, ModuleProcess) {
    let pulse = try PrivateSoundServer(runtime: rig.folder + "/pulse", kind: kind)
    writeFile(
        rig.folder + "/.asoundrc",
        "pcm.utter_paced { type pulse server \"unix:\(pulse.socket)\" device \"utter_null\" }\n")
    let module = try startModule(rig, device: "utter_paced")
    speak(module, "<speak>A warm-up for the sound server.</speak>")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    return (pulse, module)
}

/// One server at a time: two sound servers and their modules starting together on a busy machine
/// (the whole suite runs in parallel) slowed each case past its limit in CI.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct SoundServerFaultTests {
    @Test(arguments: SoundServerKind.allCases)
    func `the sound server dying mid-message ends it validly, and its return is picked up`(
        server: SoundServerKind
    ) throws {
        let rig = CaptureRig()
        let (pulse, module) = try startModuleOnServer(rig, server)

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
        #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n")
        #expect(module.quit() == 0)
        let log = rig.log
        #expect(log.contains("audio device failed"), "the failure is logged: \(log.suffix(1500))")
        #expect(log.contains("could not open the device on 'utter_paced'"), "the failed reopen is logged")
    }

    @Test(arguments: SoundServerKind.allCases)
    func `a sound server that hangs cannot hold the module: STOP is answered and QUIT exits`(
        server: SoundServerKind
    ) throws {
        let rig = CaptureRig()
        let (pulse, module) = try startModuleOnServer(rig, server)
        pulse.freeze()
        defer { pulse.thaw() }
        speak(module, "<speak>" + String(repeating: "Nobody hears this message. ", count: 10) + "</speak>")
        module.send("STOP\n")
        let events = try #require(module.expect("703 STOP\n"))
        #expect(events == "703 STOP\n" || events == "701 BEGIN\n703 STOP\n")
        // Within the second speech-dispatcher waits before it kills a module; it used to wait for good.
        #expect(module.quit() == 0)
        #expect(rig.log.contains("still in an audio device or engine call after 500 ms"), "\(rig.log)")
    }
}
