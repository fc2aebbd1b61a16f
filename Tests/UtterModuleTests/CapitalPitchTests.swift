import Glibc
import TestSupport
import Testing

// CapitalPitchRise heard through the real module: the F0 of a capital against the same letter in
// lower case, each rendered by a fresh sd_utter, kept as a WAV file and measured from that file.

/// Renders one message and returns the median F0 of its voiced frames, read back from the WAV
/// file libsndfile wrote of the captured audio.
private func pitch(
    _ command: String, _ text: String, rise: Int, spelling: String = "off", capitals: String = "none",
    voice: String = "NULL", configuration: String = "", in folder: TemporaryFolder
) throws -> Double {
    let settings = screenReaderSettings(spelling: spelling, capitals: capitals)
        .replacing("synthesis_voice=NULL", with: "synthesis_voice=\(voice)")
    let heard = try render(
        command, text, settings: settings, configuration: configuration + "CapitalPitchRise \(rise)\n")
    #expect(heard.events == "701 BEGIN\n702 END\n")
    let path = folder.file("\(command)-\(text.filter(\.isLetter))-\(rise)-\(spelling)-\(capitals)-\(voice).wav")
    #expect(SoundFileContents.writeWAV(heard.samples, sampleRate: 22050, to: path))
    let file = try #require(SoundFileContents(path: path), "libsndfile cannot read \(path)")
    #expect(file.sampleRate == 22050 && file.duration > 0.15 && rootMeanSquare(file.samples) > 300)
    return fundamentalFrequency(file.samples)
}

/// The measured rise in percent of `high` over `low`.
private func percentRise(_ high: Double, over low: Double) -> Double { (high / low - 1) * 100 }

/// A measured rise is the configured one within a quarter of it: libespeak-ng raises the base
/// pitch, not the intonation around it, so the steps are calibrated on measured F0 (here
/// +19…+21% for 20, +40% for 40), and voices differ a little in how much a step moves it.
private func isNear(_ measured: Double, _ configured: Int) -> Bool {
    abs(measured - Double(configured)) <= Double(configured) / 4
}

@Test(arguments: [20, 40])
func `CHAR A is spoken higher than CHAR a by the configured rise`(rise: Int) throws {
    let folder = TemporaryFolder(prefix: "utter-capitals")
    let capital = try pitch("CHAR", "A", rise: rise, in: folder)
    let lower = try pitch("CHAR", "a", rise: rise, in: folder)
    #expect(lower > 60, "CHAR a: \(lower) Hz")
    let measured = percentRise(capital, over: lower)
    #expect(isNear(measured, rise), "CHAR A \(capital) Hz, a \(lower) Hz: +\(measured)% for \(rise)%")
}

@Test func `without a rise CHAR A and CHAR a have the same pitch`() throws {
    let folder = TemporaryFolder(prefix: "utter-capitals")
    let capital = try pitch("CHAR", "A", rise: 0, in: folder)
    let lower = try pitch("CHAR", "a", rise: 0, in: folder)
    #expect(lower > 60 && abs(percentRise(capital, over: lower)) < 2, "CHAR A \(capital) Hz, a \(lower) Hz")
}

@Test func `spelled capitals rise, in spelling mode and in SSML say-as characters`() throws {
    let folder = TemporaryFolder(prefix: "utter-capitals")
    let spelledCapital = try pitch("SPEAK", "A", rise: 20, spelling: "on", in: folder)
    let spelledLower = try pitch("SPEAK", "a", rise: 20, spelling: "on", in: folder)
    let measured = percentRise(spelledCapital, over: spelledLower)
    #expect(isNear(measured, 20), "spelled A \(spelledCapital) Hz, a \(spelledLower) Hz: +\(measured)%")
    let sayAs = { (letter: String) in "<speak><say-as interpret-as=\"characters\">\(letter)</say-as></speak>" }
    let markupCapital = try pitch("SPEAK", sayAs("A"), rise: 20, in: folder)
    let markupLower = try pitch("SPEAK", sayAs("a"), rise: 20, in: folder)
    let markupRise = percentRise(markupCapital, over: markupLower)
    #expect(isNear(markupRise, 20), "say-as A \(markupCapital) Hz, a \(markupLower) Hz: +\(markupRise)%")
    let unraised = try pitch("SPEAK", "A", rise: 0, spelling: "on", in: folder)
    #expect(abs(percentRise(unraised, over: spelledLower)) < 2, "spelled A unraised \(unraised) Hz, a \(spelledLower) Hz")
}

@Test func `with cap_let_recogn spell the announced capital is raised too`() throws {
    let folder = TemporaryFolder(prefix: "utter-capitals")
    for (command, spelling) in [("CHAR", "off"), ("SPEAK", "on")] {
        let raised = try pitch(command, "A", rise: 20, spelling: spelling, capitals: "spell", in: folder)
        let plain = try pitch(command, "A", rise: 0, spelling: spelling, capitals: "spell", in: folder)
        let measured = percentRise(raised, over: plain)
        #expect(isNear(measured, 20), "\(command) \"capital A\": \(raised) Hz raised, \(plain) Hz not: +\(measured)%")
    }
}

@Test func `words starting with a capital rise on espeak-ng voices`() throws {
    let folder = TemporaryFolder(prefix: "utter-capitals")
    let capital = try pitch("SPEAK", "Anna", rise: 20, in: folder)
    let lower = try pitch("SPEAK", "anna", rise: 20, in: folder)
    let measured = percentRise(capital, over: lower)
    #expect(isNear(measured, 20), "Anna \(capital) Hz, anna \(lower) Hz: +\(measured)%")
}

@Test func `a clip voice's letters, spoken by its espeak-ng fallback, rise too`() throws {
    let folder = TemporaryFolder(prefix: "utter-capitals")
    mkdir(folder.file("voices"), 0o755)
    mkdir(folder.file("voices/greeter"), 0o755)
    writeTone(folder.file("voices/greeter/hello.wav"), frequency: 441, seconds: 0.5, amplitude: 12000)
    writeFile(
        folder.file("voices/greeter/voice.conf"),
        """
        Name "Greeter"
        PrimaryLanguage "en-US"
        Fallback "espeak-ng" "English (America)"
        Clip "hello" "hello.wav"

        """)
    let voices = "VoiceFolder \"\(folder.file("voices"))\"\n"
    let chosen = try render(
        "CHAR", "A", settings: screenReaderSettings().replacing("synthesis_voice=NULL", with: "synthesis_voice=Greeter"),
        configuration: voices + "LogLevel 5\n")
    #expect(chosen.log.contains("message accepted") && chosen.log.contains("voice=\"Greeter\""), "\(chosen.log.suffix(1500))")
    let capital = try pitch("CHAR", "A", rise: 20, voice: "Greeter", configuration: voices, in: folder)
    let lower = try pitch("CHAR", "a", rise: 20, voice: "Greeter", configuration: voices, in: folder)
    let measured = percentRise(capital, over: lower)
    #expect(lower > 60 && isNear(measured, 20), "Greeter CHAR A \(capital) Hz, a \(lower) Hz: +\(measured)%")
}
