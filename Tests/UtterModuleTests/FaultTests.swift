import Glibc
import TestSupport
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
    let status = module.waitForExit(within: 5)
    // Seen once in CI: the module neither exited nor logged anything after the SET; the report says
    // which processes still held its stdout's pipe (a reader elsewhere makes its writes succeed).
    #expect(status == 0, "\(status.map { "exit status \($0)" } ?? "still running: \(module.outputPipeReport())")")
    let log = rig.log
    #expect(log.contains("stdout closed"), "\(log)")
}

@Test func `a configuration file of garbage is reported and the defaults serve`() throws {
    let rig = CaptureRig()
    var bytes: [UInt8] = []
    var random = SeededGenerator(seed: 0xBAD)
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

@Test(arguments: ["closed", "a folder", "a FIFO", "too large"])
func `a configuration file that cannot be read is reported at once and the defaults serve`(kind: String) throws {
    let rig = CaptureRig()
    let path = rig.folder + "/utter.conf"
    let reason: String
    switch kind {
    case "closed":
        writeFile(path, "DefaultVoice \"German\"\n")
        #expect(chmod(path, 0) == 0)
        reason = "Permission denied"
    case "a folder":
        #expect(mkdir(path, 0o755) == 0)
        reason = "not a regular file"
    case "a FIFO":
        // Opened for reading the ordinary way, it would wait for a writer forever.
        #expect(mkfifo(path, 0o644) == 0)
        reason = "not a regular file"
    default:
        writeFile(path, String(repeating: "# a comment line that goes on and on for a while\n", count: 100_000))
        reason = "larger than 4 MiB"
    }
    let module = try startModule(rig, configurationPath: path, boundByPermissions: true)
    speak(module, "<speak>Defaults still work.</speak>")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    #expect(rootMeanSquare(rig.samples()) > 500)
    let log = rig.log
    #expect(log.contains("configuration \(path) cannot be read (\(reason)); using the defaults"), "\(log)")
}

@Test func `an AudioConfigurationFile that is a FIFO is refused at once and the audio still plays`() throws {
    let rig = CaptureRig()
    let fifo = rig.folder + "/alsa.conf"
    #expect(mkfifo(fifo, 0o644) == 0)
    let path = rig.folder + "/utter.conf"
    writeFile(path, "AudioConfigurationFile \"\(fifo)\"\n")
    let module = try startModule(rig, configurationPath: path)
    speak(module, "<speak>Still heard.</speak>")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    #expect(rootMeanSquare(rig.samples()) > 500)
    #expect(rig.log.contains("AudioConfigurationFile \(fifo) cannot be read (not a regular file)"), "\(rig.log)")
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
    // A FIFO in its place: opened the ordinary way, it would hold the synthesis thread for good,
    // and the next icon would never play.
    #expect(unlink(path) == 0 && mkfifo(path, 0o644) == 0)
    speak(module, "tone", command: "SOUND_ICON")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    writeTone(folder + "/other.wav", frequency: 660, seconds: 0.5, amplitude: 12000)
    speak(module, "other", command: "SOUND_ICON")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    let log = rig.log
    #expect(log.contains("sound icon not played"), "\(log)")
    #expect(log.contains("cannot play \(path): it is not a regular file"), "\(log)")
    // One second, then the half second left, then nothing from the garbage or the FIFO (a stale
    // cache would have played more), then the other half second.
    let samples = rig.samples()
    #expect(abs(samples.count - 22050 * 2) < 1000, "\(samples.count) samples, expected 44100")
    #expect(rootMeanSquare(samples.prefix(22050 * 2 - 400)) > 5000, "all three tones were played")
}
