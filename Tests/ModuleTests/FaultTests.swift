import Glibc
import Testing

@Test func `SIGTERM while speaking ends the message with 703 and exits cleanly`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    speak(module, "<speak>" + String(repeating: "A long message that is interrupted. ", count: 40) + "</speak>")
    kill(module.pid, SIGTERM)
    let rest = try #require(module.expect("703 STOP\n"))
    #expect(rest.hasSuffix("703 STOP\n") && !rest.contains("702"))
    #expect(module.waitForExit(within: 5) == 0)
    #expect(module.drain(waiting: 0.1) == "", "nothing after the terminal event")
}

@Test func `SIGTERM while idle exits cleanly without a word`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    kill(module.pid, SIGTERM)
    #expect(module.waitForExit(within: 5) == 0)
    #expect(module.drain(waiting: 0.1) == "")
}

@Test func `a server that closed our stdout makes the module exit cleanly`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    module.closeOutput()
    module.send(settingsBlock())
    #expect(module.waitForExit(within: 5) == 0)
    let log = rig.log
    #expect(log.contains("stdout closed"), "\(log)")
}

@Test func `a configuration file of garbage is reported and the defaults serve`() throws {
    let rig = CaptureRig()
    var bytes: [UInt8] = []
    var random = XorShift(seed: 0xBAD)
    for _ in 0..<4096 { bytes.append(UInt8(truncatingIfNeeded: random.next())) }
    let path = rig.folder + "/garbage.conf"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    let module = try startModule(rig, configurationPath: path)
    speak(module, "<speak>Defaults still work.</speak>")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    let log = rig.log
    #expect(log.contains("garbage.conf: line "), "each bad line is reported: \(log.prefix(500))")
}

@Test func `a sound file truncated or corrupted after it was played is read again, and a broken one is logged`() throws
{
    let rig = CaptureRig()
    let folder = rig.folder + "/icons"
    mkdir(folder, 0o755)
    let path = folder + "/tone.wav"
    writeTone(path, frequency: 441, seconds: 1, amplitude: 12000)
    let configuration = rig.folder + "/utter.conf"
    writeFile(configuration, "SoundIconFolder \"\(folder)\"\n")
    let module = try startModule(rig, configurationPath: configuration)
    speak(module, "tone", command: "SOUND_ICON")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    // Cut to half its samples behind the module's back; the header still claims a second.
    #expect(truncate(path, off_t(44 + 22050)) == 0)
    speak(module, "tone", command: "SOUND_ICON")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    writeFile(path, String(repeating: "not a sound file ", count: 60))
    speak(module, "tone", command: "SOUND_ICON")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    let log = rig.log
    #expect(log.contains("sound icon not played"), "\(log)")
    // One second, then the half second left, then nothing from the garbage: a stale cache would
    // have played two or three seconds.
    let samples = rig.samples()
    #expect(abs(samples.count - 22050 * 3 / 2) < 1000, "\(samples.count) samples, expected 33075")
    #expect(rms(samples.prefix(22050 * 3 / 2 - 400)) > 5000, "both tones were played")
}
