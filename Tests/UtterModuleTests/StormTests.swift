import Glibc
import TestSupport
import Testing

/// Thousands of random messages, each interrupted (or not) in a random way, as a busy desktop
/// would send them: every accepted message gets exactly one terminal event and nothing after it.
@Test func `a storm of random SPEAK, STOP, PAUSE and LIST VOICES keeps every event rule`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig, device: "utter_no_such_device")
    var random = SeededGenerator(seed: 0x5707)
    let texts = [
        "<speak>Short.</speak>", fourSentences, "<speak><mark name=\"a\"/>One <mark name=\"b\"/>two.</speak>",
        "<speak>Hello world.<mark name=\"__spd_0\"/> Again.<mark name=\"__spd_1\"/> End.</speak>",
    ]
    let commands = ["SPEAK", "CHAR", "KEY", "SOUND_ICON"]
    var baseline = 0
    var counts: [String: Int] = [:]
    for round in 0..<10_000 {
        if round == 1000 { baseline = residentKilobytes(module.pid) }
        module.send(settingsBlock())
        guard module.expect("203 OK SETTINGS RECEIVED\n") == "203 OK RECEIVING SETTINGS\n203 OK SETTINGS RECEIVED\n"
        else {
            Issue.record("round \(round): a stray event or no reply before the SET reply")
            return
        }
        let command = commands[Int(random.next() % 8) < 5 ? 0 : Int(random.next() % 4)]
        let data =
            command == "SPEAK"
            ? texts[Int(random.next() % UInt64(texts.count))]
            : command == "KEY" ? "shift_a" : command == "CHAR" ? "x" : "message"
        var extra = ""
        for _ in 0..<Int(random.next() % 4) {
            extra += ["STOP\n", "PAUSE\n", "LIST VOICES\n", "STOP\nSTOP\n"][Int(random.next() % 4)]
        }
        module.send(speakCommand(data, command: command) + extra)
        guard let accepted = module.expect("200 OK SPEAKING\n"),
            accepted == "202 OK RECEIVING MESSAGE\n200 OK SPEAKING\n"
        else {
            Issue.record("round \(round): \(command) not accepted")
            return
        }
        // Read to the terminal event and every LIST VOICES reply (which may come after it).
        let listRequests = extra.split(separator: "\n").filter { $0 == "LIST VOICES" }.count
        var lists = 0
        var events: [Substring] = []
        var terminal: Substring?
        while terminal == nil || lists < listRequests {
            guard let line = module.expect("\n") else {
                Issue.record("round \(round): no terminal event; events \(events)")
                return
            }
            let text = line.dropLast()
            if text == "200 OK VOICE LIST SENT" { lists += 1 }
            if text.hasPrefix("200") { continue }
            #expect(terminal == nil, "round \(round): \(text) after \(terminal ?? "")")
            events.append(text)
            if ["702 END", "703 STOP", "704 PAUSE"].contains(text) { terminal = text }
        }
        counts[String(terminal!), default: 0] += 1
        // 701 first (or a 703/704 alone), marks only after it.
        if events.first != "701 BEGIN" {
            #expect(events.count == 1 && events[0] != "702 END", "round \(round): \(events)")
        }
        #expect(events.filter { $0 == "701 BEGIN" }.count <= 1, "round \(round): \(events)")
        // Sometimes STOP or PAUSE after the end: ignored, no reply.
        if random.next() % 5 == 0 { module.send(random.next() % 2 == 0 ? "STOP\n" : "PAUSE\n") }
    }
    module.send("QUIT\n")
    #expect(
        module.expect("210 OK QUIT\n") == "210 OK QUIT\n", "nothing may come between the last event and QUIT's reply")
    let end = residentKilobytes(module.pid)
    let growth = end - baseline
    report(
        "module storm: \(counts.values.reduce(0, +)) messages, \(counts.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")); RSS \(baseline) kB at message 1,000 → \(end) kB"
    )
    // Under AddressSanitizer, RSS measures its quarantine of freed memory, not the module.
    #expect(growth < 1024 || getenv("UTTER_SANITIZER") != nil, "RSS grew by \(growth) KiB over the storm")
    #expect(counts.values.reduce(0, +) == 10_000)
    #expect((counts["703 STOP"] ?? 0) > 100 && (counts["702 END"] ?? 0) > 100, "\(counts)")
}

