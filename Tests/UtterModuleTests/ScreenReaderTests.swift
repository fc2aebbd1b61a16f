import Glibc
import TestSupport
import Testing

// What a screen reader sends, heard through the real module, espeak-ng and the ALSA file device:
// CHAR, KEY, punctuation, spelling, capitals and SSML constructs, in English, German and Japanese.

/// One message spoken by a fresh module: what the device received, the events and the log.
struct Rendered {
    var samples: [Int16]
    var events: String
    var log: String
    var seconds: Double { Double(samples.count) / 22050 }
    var level: Double { rootMeanSquare(samples) }
}

func screenReaderSettings(
    language: String = "en", punctuation: String = "none", spelling: String = "off", capitals: String = "none"
) -> String {
    [
        "SET", "pitch=0", "pitch_range=0", "rate=0", "volume=100", "punctuation_mode=\(punctuation)",
        "spelling_mode=\(spelling)", "cap_let_recogn=\(capitals)", "language=\(language)", "synthesis_voice=NULL", ".",
    ].joined(separator: "\n") + "\n"
}

/// The longest run of 10 ms windows below RMS 100, in seconds.
func longestSilence(_ samples: [Int16]) -> Double {
    var longest = 0
    var current = 0
    for start in stride(from: 0, to: samples.count - 220, by: 220) {
        current = rootMeanSquare(samples[start..<(start + 220)]) < 100 ? current + 1 : 0
        longest = max(longest, current)
    }
    return Double(longest) * 0.01
}

/// The median fundamental frequency of the voiced 40 ms frames, by autocorrelation (60–400 Hz).
func fundamentalFrequency(_ samples: [Int16]) -> Double {
    let frame = 882
    var estimates: [Double] = []
    let signal = samples.map(Double.init)
    for start in stride(from: 0, to: signal.count - frame - 400, by: frame) {
        let window = signal[start..<(start + frame)]
        guard rootMeanSquare(samples[start..<(start + frame)]) > 1000 else { continue }
        var best = (lag: 0, score: 0.0)
        for lag in 55...367 {
            var sum = 0.0
            for index in window.indices { sum += window[index] * signal[index + lag] }
            if sum > best.score { best = (lag, sum) }
        }
        if best.lag > 0 { estimates.append(22050 / Double(best.lag)) }
    }
    return estimates.isEmpty ? 0 : estimates.sorted()[estimates.count / 2]
}

func render(
    _ command: String = "SPEAK", _ text: String, settings: String = screenReaderSettings(), configuration: String = ""
) throws -> Rendered {
    let rig = CaptureRig()
    let path = rig.folder + "/utter.conf"
    writeFile(path, "KeyNamesFolder \"\(keyTablesFolder)\"\n" + configuration)
    let module = try startModule(rig, configurationPath: path)
    speak(module, text, command: command, settings: settings)
    let events = try #require(module.expect("702 END\n"), "no END for \(command) \(text.debugDescription)")
    // The file device writes its last frames when the device closes: let the module exit first.
    #expect(module.quit() == 0)
    return Rendered(samples: rig.samples(), events: events, log: rig.log)
}

@Test(arguments: ["en", "de", "ja"])
func `CHAR names symbols and emoji aloud where libespeak-ng alone is silent`(language: String) throws {
    for character in ["€", "😀", "space"] {
        let heard = try render("CHAR", character, settings: screenReaderSettings(language: language))
        #expect(heard.events == "701 BEGIN\n702 END\n")
        #expect(
            heard.seconds > 0.25 && heard.level > 300,
            "\(language) CHAR \(character): \(heard.seconds) s, RMS \(heard.level)")
    }
}

@Test(arguments: ["en", "de", "ja"])
func `KEY names are heard in the message language, longer than the character alone`(language: String) throws {
    let settings = screenReaderSettings(language: language)
    let letter = try render("CHAR", "a", settings: settings)
    for key in ["shift_a", "kp-enter", "control_alt_delete"] {
        let heard = try render("KEY", key, settings: settings)
        #expect(heard.events == "701 BEGIN\n702 END\n")
        #expect(
            heard.level > 300 && heard.seconds > letter.seconds + 0.2,
            "\(language) KEY \(key): \(heard.seconds) s vs \(letter.seconds) s")
        #expect(!heard.log.contains("warning"), "\(heard.log)")
    }
}

@Test(arguments: [("en", "Hello, world; (yes) no!"), ("de", "Hallo, Welt; (ja) nein!"), ("ja", "はい、(いいえ)!")])
func `punctuation modes none, some, most and all read more and more of it`(language: String, text: String) throws {
    func heard(_ mode: String, _ configuration: String = "") throws -> Double {
        try render(
            "SPEAK", "<speak>\(text)</speak>", settings: screenReaderSettings(language: language, punctuation: mode),
            configuration: configuration
        ).seconds
    }
    let none = try heard("none")
    let all = try heard("all")
    let most = try heard("most")
    // The "some" list is configurable: with the semicolon in it, "some" reads it.
    let some = try heard("some", "SomePunctuation \";;\"\n")
    #expect(all > none + 0.3, "\(language): all \(all) s, none \(none) s")
    #expect(most > none + 0.3, "\(language): most \(most) s, none \(none) s")
    if language != "ja" {
        #expect(some > none + 0.15 && some < all, "\(language): some \(some) s, none \(none) s, all \(all) s")
    }
}

@Test(arguments: ["en", "de"])
func `spelling spells, and spelled capitals are announced or follow the capital icon`(language: String) throws {
    func heard(spelling: String, capitals: String) throws -> Rendered {
        try render(
            "SPEAK", "<speak>Ab</speak>",
            settings: screenReaderSettings(language: language, spelling: spelling, capitals: capitals))
    }
    let word = try heard(spelling: "off", capitals: "none")
    let spelled = try heard(spelling: "on", capitals: "none")
    let announced = try heard(spelling: "on", capitals: "spell")
    let icon = try heard(spelling: "on", capitals: "icon")
    #expect(spelled.seconds > word.seconds, "\(language): spelled \(spelled.seconds) s, word \(word.seconds) s")
    #expect(
        announced.seconds > spelled.seconds + 0.2,
        "\(language): capital named \(announced.seconds) s, plain \(spelled.seconds) s")
    #expect(
        (0.03...0.06).contains(icon.seconds - spelled.seconds),
        "\(language): icon \(icon.seconds) s, plain \(spelled.seconds) s")
    #expect(!icon.log.contains("not played"), "\(icon.log)")
}

@Test func `a capital CHAR with cap_let_recogn icon plays the icon before the letter`() throws {
    let plain = try render("CHAR", "A", settings: screenReaderSettings(capitals: "none"))
    let icon = try render("CHAR", "A", settings: screenReaderSettings(capitals: "icon"))
    let named = try render("CHAR", "A", settings: screenReaderSettings(capitals: "spell"))
    // sound-icons' "capital" is a 35 ms click.
    #expect(
        (0.03...0.06).contains(icon.seconds - plain.seconds), "icon \(icon.seconds) s, plain \(plain.seconds) s")
    #expect(named.seconds > plain.seconds + 0.2, "capital named \(named.seconds) s, plain \(plain.seconds) s")
    // A configured icon that does not exist is logged, and the letter is still spoken.
    let missing = try render(
        "CHAR", "A", settings: screenReaderSettings(capitals: "icon"),
        configuration: "CapitalIcon \"/nonexistent.wav\"\n")
    #expect(abs(missing.seconds - plain.seconds) < 0.05 && missing.level > 300)
    #expect(missing.log.contains("audio \"/nonexistent.wav\" not played"), "\(missing.log)")
}

@Test func `SSML audio plays the file, or speaks its fallback content when it cannot`() throws {
    func heard(_ source: String) throws -> Rendered {
        try render(
            "SPEAK",
            "<speak>One <mark name=\"a\"/>two. <audio src=\"\(source)\">three <mark name=\"b\"/>four</audio> five.</speak>"
        )
    }
    let byPath = try heard("/usr/share/sounds/sound-icons/message")
    let byName = try heard("message")
    let byURI = try heard("file:///usr/share/sounds/sound-icons/message")
    let missing = try heard("/nonexistent/sound.wav")
    let remote = try heard("https://example.org/a.wav")
    for result in [byPath, byName, byURI, missing, remote] {
        // Marks inside the fallback are reported whether it is spoken or not.
        #expect(result.events == "701 BEGIN\n700-a\n700 INDEX MARK\n700-b\n700 INDEX MARK\n702 END\n")
    }
    #expect(abs(byName.seconds - byPath.seconds) < 0.01 && abs(byURI.seconds - byPath.seconds) < 0.01)
    #expect(!byPath.log.contains("not played"))
    #expect(
        missing.log.contains("audio \"/nonexistent/sound.wav\" not played")
            && missing.log.contains("speaking its fallback text"))
    #expect(remote.log.contains("not a file path or a name in the sound folders"))
    #expect(abs(missing.seconds - remote.seconds) < 0.01, "both speak the same fallback")
    #expect(
        abs(missing.seconds - byPath.seconds) > 0.1,
        "the sound is not the fallback: \(missing.seconds) s vs \(byPath.seconds) s")
}

@Test func `prosody volume in decibels changes the level, rate and pitch the sound`() throws {
    let text = "Volume is measured in decibels."
    let loud = try render("SPEAK", "<speak><prosody volume=\"+6dB\">\(text)</prosody></speak>")
    let quiet = try render("SPEAK", "<speak><prosody volume=\"-6dB\">\(text)</prosody></speak>")
    #expect(loud.level > quiet.level * 3, "+6 dB RMS \(loud.level), −6 dB RMS \(quiet.level)")
    let high = try render("SPEAK", "<speak><prosody pitch=\"+50%\">\(text)</prosody></speak>")
    let low = try render("SPEAK", "<speak><prosody pitch=\"-30%\">\(text)</prosody></speak>")
    let (highPitch, lowPitch) = (fundamentalFrequency(high.samples), fundamentalFrequency(low.samples))
    #expect(lowPitch > 50 && highPitch > lowPitch * 1.25, "pitch +50%: \(highPitch) Hz, −30%: \(lowPitch) Hz")
    let slow = try render("SPEAK", "<speak><prosody rate=\"50%\">\(text)</prosody></speak>")
    let normal = try render("SPEAK", "<speak>\(text)</speak>")
    #expect(slow.seconds > normal.seconds * 1.4, "rate 50%: \(slow.seconds) s, normal \(normal.seconds) s")
    let pause = try render("SPEAK", "<speak>\(text)<break time=\"1500ms\"/>\(text)</speak>")
    let gap = longestSilence(pause.samples)
    #expect(gap > 1.4 && gap < 1.8, "a 1500 ms break left \(gap) s of silence")
}

@Test func `a voice switch inside a message speaks that part with the named voice`() throws {
    let german = "Guten Tag, ich bin die deutsche Stimme."
    let switched = try render("SPEAK", "<speak><voice name=\"German\">\(german)</voice></speak>")
    let byLanguage = try render("SPEAK", "<speak>\(german)</speak>", settings: screenReaderSettings(language: "de"))
    let byXMLLang = try render("SPEAK", "<speak><s xml:lang=\"de\">\(german)</s></speak>")
    let asEnglish = try render("SPEAK", "<speak>\(german)</speak>")
    #expect(abs(switched.seconds - byLanguage.seconds) < 0.05, "\(switched.seconds) s vs \(byLanguage.seconds) s")
    #expect(abs(byXMLLang.seconds - byLanguage.seconds) < 0.05, "\(byXMLLang.seconds) s vs \(byLanguage.seconds) s")
    #expect(abs(asEnglish.seconds - byLanguage.seconds) > 0.1, "English reads it differently: \(asEnglish.seconds) s")
}

@Test(arguments: [
    ("en", "The quick brown fox. Jumps over the lazy dog."), ("de", "Der schnelle Fuchs. Springt über den Hund."),
    ("ja", "はやい きつね。 いぬ を とびこえる。"),
])
func `Orca's word marks are each reported once, in order, in every language`(language: String, text: String) throws {
    var markup = "<speak>"
    var names: [String] = []
    var offset = 0
    for word in text.split(separator: " ") {
        let name = "\(offset):\(offset + word.count)"
        names.append(name)
        markup += "<mark name=\"\(name)\"/>\(word) "
        offset += word.count + 1
    }
    let heard = try render("SPEAK", markup + "</speak>", settings: screenReaderSettings(language: language))
    let expected = "701 BEGIN\n" + names.map { "700-\($0)\n700 INDEX MARK\n" }.joined() + "702 END\n"
    #expect(heard.events == expected)
    #expect(heard.level > 300)
}

@Test(arguments: [
    ("en", "Speech is a computer's voice", "W3C", "World Wide Web Consortium"),
    ("de", "Sprache ist die Stimme des Rechners", "BRD", "Bundesrepublik Deutschland"),
    ("ja", "こんにちは、 げんき です か", "JR", "にほん りょかく てつどう"),
])
func `each SSML construct changes what is heard, in every language`(
    language: String, text: String, abbreviation: String, alias: String
) throws {
    let settings = screenReaderSettings(language: language)
    func heard(_ body: String) throws -> Rendered {
        let result = try render("SPEAK", "<speak>\(body)</speak>", settings: settings)
        #expect(result.events == "701 BEGIN\n702 END\n")
        return result
    }
    let plain = try heard(text)
    #expect(plain.level > 300)
    let broken = try heard("\(text)<break time=\"1500ms\"/>\(text)")
    #expect(
        (1.4...1.8).contains(longestSilence(broken.samples)),
        "\(language): break left \(longestSilence(broken.samples)) s")
    let strong = try heard("\(text)<break strength=\"x-strong\"/>\(text)")
    #expect(strong.seconds > plain.seconds * 2, "\(language): a strong break adds a pause")
    let slow = try heard("<prosody rate=\"x-slow\">\(text)</prosody>")
    #expect(slow.seconds > plain.seconds * 1.3, "\(language): x-slow \(slow.seconds) s, plain \(plain.seconds) s")
    let quiet = try heard("<prosody volume=\"-12dB\">\(text)</prosody>")
    #expect(quiet.level < plain.level * 0.4, "\(language): −12 dB RMS \(quiet.level), plain \(plain.level)")
    let spelled = try heard("<say-as interpret-as=\"characters\">\(abbreviation)</say-as>")
    let substituted = try heard("<sub alias=\"\(alias)\">\(abbreviation)</sub>")
    #expect(substituted.seconds > spelled.seconds, "\(language): the alias is read instead of \(abbreviation)")
    let paragraphs = try heard("<p><s>\(text)</s><s>\(text)</s></p><p>\(text)</p>")
    #expect(paragraphs.seconds > plain.seconds * 3, "\(language): three sentences")
    let emphasised = try heard("<emphasis level=\"strong\">\(text)</emphasis>")
    let emphasisChangesTheSound = emphasised.samples != plain.samples  // not in #expect: no sample dumps
    #expect(emphasised.level > 300 && emphasisChangesTheSound, "\(language): emphasis changes the sound")
}

@Test func `a message starts with sound, not with the engine's lead-in of digital silence, and a leading break stays`()
    throws
{
    let hello = try render("SPEAK", "<speak>Hello there.</speak>")
    let leadIn = hello.samples.firstIndex { $0 != 0 } ?? hello.samples.count
    #expect(leadIn < 10, "the message starts with \(leadIn) zero samples")
    let paused = try render("SPEAK", "<speak><break time=\"500ms\"/>Hello there.</speak>")
    let silence = Double(paused.samples.firstIndex { abs($0) > 100 } ?? 0) / 22050
    #expect(silence > 0.45, "a leading 500 ms break left \(silence) s")
}
