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
