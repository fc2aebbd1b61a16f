import Glibc
import TestSupport
import Testing

/// The SET block the 0.11.4 server sends before every message (transcript 03).
func settingsBlock(language: String = "en-US", voice: String? = "male1", synthesisVoice: String = "NULL") -> String {
    var lines = [
        "SET", "pitch=0", "pitch_range=0", "rate=0", "volume=100", "punctuation_mode=none", "spelling_mode=off",
        "cap_let_recogn=none",
    ]
    if let voice { lines.append("voice=\(voice)") }
    lines += ["language=\(language)", "synthesis_voice=\(synthesisVoice)", "."]
    return lines.joined(separator: "\n") + "\n"
}

/// Dot-stuffs `text` as the server does and frames it as a SPEAK block.
func speakCommand(_ text: String, command: String = "SPEAK") -> String {
    let stuffed = text.split(separator: "\n", omittingEmptySubsequences: false).map {
        $0.hasPrefix(".") ? "." + $0 : String($0)
    }
    return "\(command)\n" + stuffed.joined(separator: "\n") + "\n.\n"
}

let fourSentences = """
    <speak>The first sentence is here.<mark name="__spd_0"/> Then comes a second one, a little longer than the first.\
    <mark name="__spd_1"/> A third sentence follows it.<mark name="__spd_2"/> And the fourth sentence ends the text.</speak>
    """

/// Starts the module and runs the start-up handshake exactly as speech-dispatcher does.
func startModule(
    _ rig: borrowing CaptureRig, device: String = "utter_capture",
    configurationPath: String = "/nonexistent/utter.conf",
    boundByPermissions: Bool = false, environment: [String] = [], audioMethod: String = "pulse"
) throws -> ModuleProcess {
    let module = try ModuleProcess(
        home: rig.folder, logPath: rig.logPath, configurationPath: configurationPath,
        boundByPermissions: boundByPermissions, environment: environment)
    module.send("INIT\n")
    let initReply = try #require(module.expect("299 OK LOADED SUCCESSFULLY\n"))
    #expect(initReply.hasPrefix("299-Utter: ") && initReply.hasSuffix(" voices ready.\n299 OK LOADED SUCCESSFULLY\n"))
    module.send("AUDIO\n")
    #expect(module.expect("\n") == "207 OK RECEIVING AUDIO SETTINGS\n")
    module.send("audio_output_method=server\n.\n")
    #expect(module.expect("300 MODULE ERROR\n") == "300-Utter plays its own audio\n300 MODULE ERROR\n")
    module.send("AUDIO\n")
    #expect(module.expect("\n") == "207 OK RECEIVING AUDIO SETTINGS\n")
    module.send(
        "audio_output_method=\(audioMethod)\naudio_oss_device=/dev/dsp\naudio_alsa_device=\(device)\n"
            + "audio_nas_server=tcp/localhost:5450\naudio_pulse_device=default\naudio_pulse_min_length=10\n.\n")
    #expect(module.expect("\n") == "203 OK AUDIO INITIALIZED\n")
    module.send("LOGLEVEL\nlog_level=5\n.\n")
    #expect(module.expect("203 OK LOGLEVEL SET\n") == "207 OK RECEIVING LOGLEVEL SETTINGS\n203 OK LOGLEVEL SET\n")
    return module
}

/// Sends SET and a message; returns after `200 OK SPEAKING`.
///
/// `followedBy` goes out in the same write as the message, as the server's STOP or PAUSE may.
func speak(
    _ module: ModuleProcess, _ text: String, command: String = "SPEAK", settings: String = settingsBlock(),
    followedBy extra: String = ""
) {
    module.send(settings)
    #expect(module.expect("203 OK SETTINGS RECEIVED\n") == "203 OK RECEIVING SETTINGS\n203 OK SETTINGS RECEIVED\n")
    module.send(speakCommand(text, command: command) + extra)
    #expect(module.expect("200 OK SPEAKING\n") == "202 OK RECEIVING MESSAGE\n200 OK SPEAKING\n")
}

@Test func `the handshake, voice list and QUIT are answered byte for byte`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    module.send("LIST VOICES\n")
    let list = try #require(module.expect("200 OK VOICE LIST SENT\n"))
    let lines = list.split(separator: "\n").dropLast()
    #expect(lines.count > 100)
    #expect(
        lines.allSatisfy {
            $0.hasPrefix("200-") && $0.split(separator: "\t", omittingEmptySubsequences: false).count == 3
        })
    #expect(lines.contains("200-English (America)\ten-US\tnone"))
    #expect(lines.contains("200-English (America) [en]\ten\tnone"))
    #expect(Set(lines.map { $0.split(separator: "\t")[0] }).count == lines.count, "voice names are unique")
    module.send("LIST VOICES de\n")
    #expect(module.expect("200 OK VOICE LIST SENT\n") == "200-German\tde\tnone\n200 OK VOICE LIST SENT\n")
    module.send("LIST VOICES de male1\nLIST VOICES xx\n")
    #expect(
        module.expect("304 CANT LIST VOICES\n304 CANT LIST VOICES\n") == "304 CANT LIST VOICES\n304 CANT LIST VOICES\n")
    module.send("DEBUG ON \(rig.folder)/debug.log \nDEBUG OFF \nHELLO\nQUIT\n")
    #expect(
        module.expect("210 OK QUIT\n")
            == "200 OK DEBUGGING ON\n200 OK DEBUGGING OFF\n300 ERR UNKNOWN COMMAND\n210 OK QUIT\n")
    #expect(module.waitForExit(within: 5) == 0)
}

@Test func `a message with marks is played and every mark is reported once, in order`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    speak(module, "<speak>Hello world.<mark name=\"__spd_0\"/> This is <mark name=\"x\"/>a test.</speak>")
    let events = try #require(module.expect("702 END\n"))
    #expect(events == "701 BEGIN\n700-__spd_0\n700 INDEX MARK\n700-x\n700 INDEX MARK\n702 END\n")
    let samples = rig.samples()
    #expect(samples.count > 22050 && samples.count < 22050 * 5, "\(samples.count) samples")
    #expect(rootMeanSquare(samples) > 500)
    module.send("QUIT\n")
    #expect(module.expect("210 OK QUIT\n") == "210 OK QUIT\n")
}

@Test func `CHAR, KEY and SOUND_ICON end with a valid event sequence`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    speak(module, "a", command: "CHAR")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    let afterChar = rig.samples().count
    #expect(afterChar > 2000)
    speak(module, "shift_a", command: "KEY")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(rig.samples().count > afterChar + 2000)
    speak(module, "no-such-icon", command: "SOUND_ICON")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    module.send("CHAR\nab\ncd\n.\n")
    #expect(module.expect("305 DATA MORE THAN ONE LINE\n") == "202 OK RECEIVING MESSAGE\n305 DATA MORE THAN ONE LINE\n")
    module.send("SPEAK\n.\n")
    #expect(module.expect("301 ERROR CANT SPEAK\n") == "202 OK RECEIVING MESSAGE\n301 ERROR CANT SPEAK\n")
}

@Test func `STOP ends the message with 703 and the next message plays in full`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    // A long text, stopped at once: the server may send STOP right after 200 OK SPEAKING.
    let long =
        "<speak>" + String(repeating: "This sentence is repeated to make a long message. ", count: 60) + "</speak>"
    speak(module, long, followedBy: "STOP\nSTOP\n")
    let stopped = try #require(module.expect("703 STOP\n"))
    #expect(stopped == "703 STOP\n" || stopped == "701 BEGIN\n703 STOP\n")
    let afterStop = rig.samples().count
    #expect(afterStop < 22050 * 60, "a stopped message does not play to its end")
    #expect(module.drain(waiting: 0.3) == "", "nothing after the terminal event, double STOP ignored")
    speak(module, "<speak>Short one.</speak>")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    let short = rig.samples().count - afterStop
    #expect(short > 11025 && short < 22050 * 3, "the next message plays from its own start: \(short) samples")
    module.send("STOP\nPAUSE\n")
    #expect(module.drain(waiting: 0.3) == "", "STOP and PAUSE while idle get no reply")
}

@Test func `PAUSE plays on to an spd mark, reports it, sends 704, and resume loses nothing`() throws {
    let reference: Int
    do {
        let rig = CaptureRig()
        let module = try startModule(rig)
        speak(module, fourSentences)
        _ = try #require(module.expect("702 END\n"))
        reference = rig.samples().count
    }
    let rig = CaptureRig()
    let module = try startModule(rig)
    speak(module, fourSentences, followedBy: "PAUSE\n")
    // PAUSE arrived before a sample was heard: playback goes on to the first __spd_ mark and no further.
    let events = try #require(module.expect("704 PAUSE\n"))
    #expect(events == "701 BEGIN\n700-__spd_0\n700 INDEX MARK\n704 PAUSE\n")
    let marks = ["__spd_0"]
    let paused = rig.samples().count
    #expect(module.drain(waiting: 0.3) == "")
    // RESUME: the server sends the text after the last reported mark, renumbered.
    let sentences = [
        "The first sentence is here.", " Then comes a second one, a little longer than the first.",
        " A third sentence follows it.", " And the fourth sentence ends the text.",
    ]
    let rest = sentences[(marks.count)...]
    if !rest.isEmpty {
        var text = "<speak>"
        for (index, sentence) in rest.enumerated() {
            text += sentence
            if index < rest.count - 1 { text += "<mark name=\"__spd_\(index)\"/>" }
        }
        speak(module, text + "</speak>")
        #expect(module.expect("702 END\n")?.hasPrefix("701 BEGIN\n") == true)
    }
    let total = rig.samples().count
    #expect(paused > 22050 && paused < reference / 3, "only the first sentence was heard: \(paused) of \(reference)")
    // Nothing lost, nothing repeated: within a tenth of a second of the uninterrupted run.
    #expect(abs(total - reference) < 2205 + reference / 50, "paused+resumed \(total) vs uninterrupted \(reference)")
}

@Test func `PAUSE with no spd mark left plays to the end, then sends 704`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    speak(module, "<speak>Only one sentence without marks.</speak>", followedBy: "PAUSE\n")
    #expect(module.expect("704 PAUSE\n") == "701 BEGIN\n704 PAUSE\n")
    #expect(rig.samples().count > 22050)
}

@Test func `LIST VOICES while speaking is answered whole between events`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    speak(module, fourSentences, followedBy: "LIST VOICES\n")
    let all = try #require(module.expect("702 END\n"))
    let lines = all.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    let firstVoice = try #require(lines.firstIndex { $0.hasPrefix("200-") })
    let lastVoice = try #require(lines.firstIndex(of: "200 OK VOICE LIST SENT"))
    #expect(lines[firstVoice...lastVoice].allSatisfy { $0.hasPrefix("200") }, "no event inside the reply")
    let events = lines.filter { $0.hasPrefix("7") }
    #expect(
        events == [
            "701 BEGIN", "700-__spd_0", "700 INDEX MARK", "700-__spd_1", "700 INDEX MARK", "700-__spd_2",
            "700 INDEX MARK", "702 END",
        ])
}

@Test func `QUIT while speaking sends 703 first, then 210, and exits`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    speak(module, String(repeating: "Long text here. ", count: 100), followedBy: "STOP\nQUIT\n")
    let rest = try #require(module.expect("210 OK QUIT\n"))
    #expect(rest.hasSuffix("703 STOP\n210 OK QUIT\n"))
    #expect(module.waitForExit(within: 5) == 0)
}

@Test func `stdin closing mid-message makes the module exit`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    speak(module, String(repeating: "The server is about to go away. ", count: 50))
    module.closeInput()
    #expect(module.waitForExit(within: 5) == 0)
}

@Test func `a missing audio device is logged and the message still ends validly`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig, device: "utter_no_such_device")
    speak(module, "<speak>Nobody hears this.<mark name=\"__spd_0\"/> Nor this.</speak>")
    #expect(module.expect("702 END\n") == "701 BEGIN\n700-__spd_0\n700 INDEX MARK\n702 END\n")
    speak(module, "<speak>Still serving.</speak>")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    let log = rig.log
    #expect(log.contains("utter_no_such_device"), "the log names the device: \(log)")
}

@Test func `unknown voices, languages and settings still speak`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    speak(
        module, "<speak>Hallo.</speak>", settings: settingsBlock(language: "c", voice: nil, synthesisVoice: "bleaaaarg")
    )
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    module.send("SET\nrate=fast\nfrobnicate=1\nno equals sign\n.\n")
    #expect(module.expect("203 OK SETTINGS RECEIVED\n") == "203 OK RECEIVING SETTINGS\n203 OK SETTINGS RECEIVED\n")
    module.send(speakCommand("<speak>Still fine.</speak>"))
    _ = module.expect("200 OK SPEAKING\n")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
}

/// A SET block with the given prosody values.
func prosody(rate: Int = 0, pitch: Int = 0, volume: Int = 100) -> String {
    settingsBlock().replacing("rate=0", with: "rate=\(rate)").replacing("pitch=0\n", with: "pitch=\(pitch)\n")
        .replacing("volume=100", with: "volume=\(volume)")
}

@Test func `rate and volume change the audio that is played`() throws {
    let text = "<speak>The rate and the volume apply to every message.</speak>"
    var lengths: [Int] = []
    var levels: [Double] = []
    for (rate, volume) in [(0, 100), (-100, 100), (100, 100), (0, -100), (0, 0)] {
        let rig = CaptureRig()
        let module = try startModule(rig)
        speak(module, text, settings: prosody(rate: rate, volume: volume))
        #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        // The file device writes its last frames when the device closes: let the module exit first.
        #expect(module.quit() == 0)
        let samples = rig.samples()
        lengths.append(samples.count)
        levels.append(rootMeanSquare(samples))
    }
    #expect(lengths[1] > lengths[0] * 3 / 2, "rate -100 is slower: \(lengths)")
    #expect(lengths[2] < lengths[0] * 2 / 3, "rate 100 is faster: \(lengths)")
    #expect(levels[3] == 0, "volume -100 is silent: \(levels)")
    #expect(abs(levels[4] - levels[0] / 2) < levels[0] * 0.05, "volume 0 is half the amplitude: \(levels)")
}

@Test func `a bad configuration line is logged with its number and the rest applies`() throws {
    let rig = CaptureRig()
    let configuration = rig.folder + "/utter.conf"
    writeFile(configuration, "# Utter\nAudioPeriodMilliseconds fast\nDefaultLanguage \"de\"\nNoSuchKey 1\n")
    let module = try startModule(rig, configurationPath: configuration)
    // DefaultLanguage applies: a message in the C locale is spoken by the German voice.
    module.send("DEBUG ON \(rig.folder)/debug.log \n")
    #expect(module.expect("200 OK DEBUGGING ON\n") == "200 OK DEBUGGING ON\n")
    speak(module, "<speak>Guten Tag.</speak>", settings: settingsBlock(language: "c"))
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    let log = rig.log
    #expect(log.contains("utter.conf: line 2: AudioPeriodMilliseconds needs"), "\(log)")
    #expect(log.contains("utter.conf: line 4: unknown setting \"NoSuchKey\""), "\(log)")
    let debug = readText(rig.folder + "/debug.log")
    #expect(
        debug.contains("message accepted bytes=25 chosen=defaultLanguage kind=SPEAK message=1 voice=\"German\""),
        "the debug log has the detail: \(debug)")
}

@Test func `SOUND_ICON plays the named file from the sound icon folder, resampled`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    speak(module, "message", command: "SOUND_ICON")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    speak(module, "../../../../etc/passwd", command: "SOUND_ICON")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    // Debian's sound-icons `message` is 16 kHz; played at 22.05 kHz it is 22050/16000 as many samples.
    let source = try #require(soundFileFrames("/usr/share/sounds/sound-icons/message"))
    let expected = Double(source) * 22050 / 16000
    let samples = rig.samples()
    #expect(abs(Double(samples.count) - expected) < 64, "\(samples.count) samples, expected \(expected)")
    #expect(rootMeanSquare(samples) > 300)
    let log = rig.log
    #expect(log.contains("\"../../../../etc/passwd\" is not a file name"), "\(log)")
}

@Test func `an unknown sound icon ends the message cleanly with a log line`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    speak(module, "no-such-icon", command: "SOUND_ICON")
    #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
    #expect(module.quit() == 0)
    let log = rig.log
    #expect(log.contains("sound icon not played: no readable file"), "\(log)")
}

/// The number of frames in a WAV file, read from its header (`data` chunk size / block align).
func soundFileFrames(_ path: String) -> Int? {
    guard let bytes = readFile(path), bytes.count > 44 else { return nil }
    func u32(_ at: Int) -> Int {
        Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
    }
    let blockAlign = Int(bytes[32]) | Int(bytes[33]) << 8
    var offset = 12
    while offset + 8 <= bytes.count {
        let id = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
        let size = u32(offset + 4)
        if id == "data" { return size / max(1, blockAlign) }
        offset += 8 + size + (size & 1)
    }
    return nil
}

@Test func `a CHAR symbol is named once, as long as the word itself`() throws {
    var lengths: [Int] = []
    for (command, text) in [("CHAR", "€"), ("SPEAK", "<speak>euros</speak>"), ("CHAR", ",")] {
        let rig = CaptureRig()
        let module = try startModule(rig)
        speak(module, text, command: command)
        #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        #expect(module.quit() == 0)
        lengths.append(rig.samples().count)
    }
    // espeak-ng's say-as "characters" said "euros euros": twice the word.
    #expect(abs(lengths[0] - lengths[1]) < lengths[1] / 5, "CHAR € \(lengths[0]) vs SPEAK euros \(lengths[1])")
    #expect(lengths[2] > 5000, "a comma is named, not silent: \(lengths[2]) samples")
}

@Test func `PAUSE before a message whose first thing is an spd mark pauses right there`() throws {
    let rig = CaptureRig()
    let module = try startModule(rig)
    // The unpaced `file` device plays whatever reaches it at once: the PAUSE that comes in the same
    // read as the message must hold playback before the synth thread's first word reaches it.
    speak(module, "<speak><mark name=\"__spd_0\"/>Nothing of this is heard.</speak>", followedBy: "PAUSE\n")
    let events = try #require(module.expect("704 PAUSE\n"))
    #expect(events == "701 BEGIN\n700-__spd_0\n700 INDEX MARK\n704 PAUSE\n")
    #expect(module.drain(waiting: 0.3) == "")
    // At most the one sample that makes the message begin.
    #expect(rig.samples().filter { abs(Int32($0)) >= 300 }.isEmpty)
    #expect(module.quit() == 0)
}
