import TestSupport
import Glibc
import Testing

/// One bad input: what is sent, the exact reply expected, and what the log must say.
struct BadInput: CustomTestStringConvertible, Sendable {
    let name: String
    let input: [UInt8]
    let reply: String
    let log: String?
    var testDescription: String { name }

    init(_ name: String, _ input: [UInt8], reply: String, log: String? = nil) {
        self.name = name
        self.input = input
        self.reply = reply
        self.log = log
    }

    init(_ name: String, _ input: String, reply: String, log: String? = nil) {
        self.init(name, Array(input.utf8), reply: reply, log: log)
    }
}

let badInputs: [BadInput] = [
    BadInput(
        "an unknown command", "FROBNICATE\n", reply: "300 ERR UNKNOWN COMMAND\n", log: "unknown command \"FROBNICATE\""),
    BadInput("a lower-case command", "speak\n", reply: "300 ERR UNKNOWN COMMAND\n", log: "unknown command \"speak\""),
    BadInput("an empty line", "\n", reply: "300 ERR UNKNOWN COMMAND\n", log: "unknown command \"\""),
    BadInput(
        "binary garbage", [0x01, 0xFF, 0xFE, 0x00, 0x7F, 0x0A], reply: "300 ERR UNKNOWN COMMAND\n",
        log: "unknown command"),
    BadInput(
        "a line of 1 MB", String(repeating: "A", count: 1 << 20) + "\n", reply: "300 ERR UNKNOWN COMMAND\n",
        log: "unknown command \"AAAA"),
    BadInput("invalid UTF-8 in a command", [0x53, 0x54, 0xC3, 0x28, 0x50, 0x0A], reply: "300 ERR UNKNOWN COMMAND\n"),
    BadInput(
        "invalid UTF-8 in a SET key and value", Array("SET\n".utf8) + [0xFF, 0x3D, 0xFE, 0x0A] + Array(".\n".utf8),
        reply: "203 OK RECEIVING SETTINGS\n203 OK SETTINGS RECEIVED\n", log: "unknown setting \"\u{FFFD}\""),
    BadInput(
        "invalid UTF-8 in text", Array("SPEAK\nbad ".utf8) + [0xC3, 0x28] + Array(" text\n.\n".utf8),
        reply: "202 OK RECEIVING MESSAGE\n200 OK SPEAKING\n701 BEGIN\n702 END\n", log: "not valid UTF-8"),
    BadInput(
        "NUL bytes in text", Array("SPEAK\nnul".utf8) + [0x00, 0x00] + Array("here\n.\n".utf8),
        reply: "202 OK RECEIVING MESSAGE\n200 OK SPEAKING\n701 BEGIN\n702 END\n"),
    BadInput(
        "a SET line without an equals sign", "SET\nrate 20\n.\n",
        reply: "203 OK RECEIVING SETTINGS\n203 OK SETTINGS RECEIVED\n", log: "SET line without '='"),
    BadInput(
        "out-of-range and non-numeric values", "SET\nrate=1000\npitch=high\nvolume=-5000\npunctuation_mode=loud\n.\n",
        reply: "203 OK RECEIVING SETTINGS\n203 OK SETTINGS RECEIVED\n", log: "pitch=\"high\" is not a number"),
    BadInput(
        "an empty SPEAK", "SPEAK\n.\n", reply: "202 OK RECEIVING MESSAGE\n301 ERROR CANT SPEAK\n",
        log: "SPEAK without text"),
    BadInput(
        "a multi-line KEY", "KEY\nshift\na\n.\n", reply: "202 OK RECEIVING MESSAGE\n305 DATA MORE THAN ONE LINE\n",
        log: "KEY data has 2 lines"),
    BadInput(
        "a multi-line SOUND_ICON", "SOUND_ICON\nmessage\nmore\n.\n",
        reply: "202 OK RECEIVING MESSAGE\n305 DATA MORE THAN ONE LINE\n"),
    BadInput(
        "unclosed tags", "SPEAK\n<speak><prosody rate=\"fast\">Unclosed <emphasis>tags\n.\n",
        reply: "202 OK RECEIVING MESSAGE\n200 OK SPEAKING\n701 BEGIN\n702 END\n"),
    BadInput(
        "entity tricks stay inert",
        "SPEAK\n<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;&lol;\"><!ENTITY ext SYSTEM \"file:///etc/passwd\">]><speak>&lol2; &ext;</speak>\n.\n",
        reply: "202 OK RECEIVING MESSAGE\n200 OK SPEAKING\n701 BEGIN\n702 END\n"),
    BadInput(
        "audio from the module's own stdin or a device",
        "SPEAK\n<speak><audio src=\"/dev/stdin\">in</audio> <audio src=\"file:///dev/zero\">zero</audio></speak>\n.\n",
        reply: "202 OK RECEIVING MESSAGE\n200 OK SPEAKING\n701 BEGIN\n702 END\n",
        log: "cannot play /dev/zero: it is not a regular file"),
    BadInput(
        "message text without SPEAK", "Hello there.\n.\n",
        reply: "300 ERR UNKNOWN COMMAND\n300 ERR UNKNOWN COMMAND\n", log: "unknown command \"Hello there.\""),
    BadInput(
        "a DEBUG file that cannot be opened", "DEBUG ON /nonexistent/folder/debug.log \n",
        reply: "303 CANT OPEN CUSTOM DEBUG FILE\n", log: "cannot open debug log"),
]

@Test(arguments: badInputs)
func `bad input gets the prescribed reply, a log line, and the module keeps serving`(_ bad: BadInput) throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    module.send(settingsBlock())
    _ = try #require(module.expect("203 OK SETTINGS RECEIVED\n"))
    module.sendBytes(bad.input)
    let reply = try #require(module.expect(bad.reply), "no reply \(bad.reply.debugDescription)")
    #expect(reply == bad.reply)
    // Still serving, and correctly.
    speak(module, "<speak>Still here.</speak>")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    if let expected = bad.log {
        let log = rig.log
        #expect(log.contains(expected), "log lacks \(expected.debugDescription):\n\(log.prefix(2000))")
    }
}

@Test func `a DEBUG file that is a FIFO or a folder is refused at once`() throws {
    let rig = CaptureRig()
    let fifo = rig.folder + "/debug.fifo"
    #expect(mkfifo(fifo, 0o644) == 0)
    let module = try startModule(rig)
    // Opened for writing the ordinary way, a FIFO nobody reads would stop the module for good.
    module.send("DEBUG ON \(fifo)\nDEBUG ON \(rig.folder)\n")
    let replies = try #require(module.expect("303 CANT OPEN CUSTOM DEBUG FILE\n303 CANT OPEN CUSTOM DEBUG FILE\n"))
    #expect(replies == "303 CANT OPEN CUSTOM DEBUG FILE\n303 CANT OPEN CUSTOM DEBUG FILE\n")
    speak(module, "<speak>Still here.</speak>")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    let log = rig.log
    #expect(log.contains("cannot open debug log \"\(fifo)\" (No such device or address)"), "\(log)")
    #expect(log.contains("cannot open debug log \"\(rig.folder)\" (Is a directory)"), "\(log)")
}

@Test func `a 10 MB SPEAK is accepted at once and stopped at once`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    module.send(settingsBlock())
    _ = module.expect("203 OK SETTINGS RECEIVED\n")
    let base = peakResidentKilobytes(module.pid)
    let text =
        "<speak>" + String(repeating: "All work and no play makes Jack a dull boy. ", count: 230_000) + "</speak>"
    #expect(text.utf8.count > 10_000_000)
    module.send(speakCommand(text) + "STOP\n")
    #expect(module.expect("200 OK SPEAKING\n") == "202 OK RECEIVING MESSAGE\n200 OK SPEAKING\n")
    let events = try #require(module.expect("703 STOP\n"))
    #expect(events == "703 STOP\n" || events == "701 BEGIN\n703 STOP\n")
    speak(module, "<speak>Next.</speak>")
    // The synth thread reads a message a segment at a time, so it lets go of the stopped one at
    // once, whatever its length.
    #expect(module.expect("702 END\n", within: 90) == "701 BEGIN\n702 END\n")
    // Memory: the message's text as it grows (1.7 times its size at most, as a String doubles its
    // room); issue 32's bound is twice the text over the peer's, and reading the text whole took
    // 7 to 11 times its size. (AddressSanitizer keeps freed memory in quarantine: not judged there.)
    let grown = peakResidentKilobytes(module.pid) - base
    #expect(
        base > 0 && grown < 2 * text.utf8.count / 1024 || getenv("UTTER_SANITIZER") != nil,
        "the peak grew by \(grown) KiB for \(text.utf8.count / 1024) KiB of text")
}

@Test func `ten thousand marks are each reported once, in order`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig, device: "utter_no_such_device")
    var text = "<speak>"
    for index in 0..<10_000 { text += "<mark name=\"\(index)\"/>w " }
    speak(module, text + "</speak>")
    let events = try #require(module.expect("702 END\n", within: 120))
    let marks = events.split(separator: "\n").filter { $0.hasPrefix("700-") }.map { $0.dropFirst(4) }
    #expect(marks.count == 10_000)
    #expect(marks.elementsEqual((0..<10_000).map(String.init)) { $0 == $1 })
    #expect(events.hasPrefix("701 BEGIN\n"))
}

@Test func `SSML nested ten thousand deep is spoken`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    let deep =
        String(repeating: "<prosody rate=\"fast\">", count: 10_000) + "deep"
        + String(repeating: "</prosody>", count: 10_000)
    speak(module, "<speak>\(deep)</speak>")
    // 310 KB of markup: 70 ms in a release build, but seconds in the debug build the tests use, and
    // several times that while the parallel suite shares two cores (a 20 s wait timed out once).
    #expect(module.expect("702 END\n", within: 120) == "701 BEGIN\n702 END\n")
}

@Test func `SET while speaking applies to the next message`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    speak(module, fourSentences, followedBy: "SET\nrate=50\n.\n")
    let rest = try #require(module.expect("702 END\n"))
    #expect(rest.contains("203 OK RECEIVING SETTINGS\n203 OK SETTINGS RECEIVED\n"))
    #expect(rest.hasSuffix("702 END\n"))
}

/// Inputs that make libespeak-ng work hardest per byte: one 200,000-letter word, 200,000 digits,
/// 200,000 characters to spell. STOP is answered by the control thread whatever the engine is
/// doing, and the engine is abandoned at its next chunk, so the next message speaks at once.
// Among them the inputs libespeak-ng 1.51 works hardest on between two callbacks (a C probe over
// 200,000 of each: at most 16 ms), where a stalled synthesis would show.
private let pathologicalInputs: [String: String] = [
    "a 200,000-letter word": "<speak>" + String(repeating: "a", count: 200_000) + "</speak>",
    "200,000 CJK ideographs": "<speak>" + String(repeating: "一", count: 200_000) + "</speak>",
    "100,000 emoji": "<speak>" + String(repeating: "😀", count: 100_000) + "</speak>",
    "200,000 digits": "<speak>" + String(repeating: "7", count: 200_000) + "</speak>",
    "200,000 characters spelled":
        "<speak><say-as interpret-as=\"characters\">" + String(repeating: "xyz", count: 66_667) + "</say-as></speak>",
]

@Test(arguments: pathologicalInputs.keys.sorted())
func `pathological engine input is stopped at once and the module stays usable`(what: String) throws {
    let ssml = try #require(pathologicalInputs[what])
    let rig = CaptureRig()
    let module = try startModule(rig, device: "utter_no_such_device")
    speak(module, ssml)
    usleep(200_000)
    let stopped = monotonicSeconds()
    module.send("STOP\n")
    let events = try #require(module.expect("703 STOP\n"), "\(what): no STOP")
    let stopLatency = monotonicSeconds() - stopped
    #expect(events == "703 STOP\n" || events == "701 BEGIN\n703 STOP\n")
    speak(module, "<speak>Next.</speak>")
    let next = monotonicSeconds()
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n", "\(what): the next message")
    report(
        "\(what): STOP → 703 in \(Int(stopLatency * 1000)) ms, next message ended after \(Int((monotonicSeconds() - next) * 1000)) ms"
    )
    #expect(module.quit() == 0)
}

/// A message before INIT (the server never sends one) sets the module up on the spot: its replies
/// are the message's alone, no `299` among them, and it is spoken.
@Test func `SPEAK before INIT is answered as a message and spoken`() throws {
    let rig = CaptureRig()
    let module = try ModuleProcess(
        home: rig.folder, logPath: rig.logPath, configurationPath: "/nonexistent/utter.conf")
    module.send("AUDIO\n")
    #expect(module.expect("\n") == "207 OK RECEIVING AUDIO SETTINGS\n")
    module.send("audio_output_method=alsa\naudio_alsa_device=utter_capture\n.\n")
    #expect(module.expect("\n") == "203 OK AUDIO INITIALIZED\n")
    speak(module, "<speak>Set up on the spot.</speak>")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    let voiced = rig.samples().count { abs(Int32($0)) > 300 }
    #expect(voiced > 5000, "spoken: \(voiced) samples above -40 dB; \(rig.log.suffix(600))")
}
