import Glibc
import Piper
import TestSupport
import Testing

/// A Piper-shaped model of `megabytes` of weights (the tiny voice's) with the joe voice's JSON,
/// installed as voice `name` in `voices`.
private func installTinyVoice(_ name: String, in voices: String, megabytes: Int) throws {
    let joe = try joeVoiceFiles()
    mkdir(voices + "/" + name, 0o755)
    let model = "\(voices)/\(name)/\(name).onnx"
    try TinyVoice.makeModel(at: model, ["--padding", "\(megabytes)"])
    symlink(joe.config, model + ".json")
}

/// Waits until `times` lines of the module's log hold `text`; false if they do not within `seconds`.
private func logShows(_ logPath: String, _ text: String, times: Int = 1, within seconds: Double = 60) -> Bool {
    eventually(within: seconds, every: 0.02) { occurrences(of: text, in: readText(logPath)) >= times }
}

private func occurrences(of text: String, in log: String) -> Int {
    log.split(separator: "\n").filter { $0.contains(text) }.count
}

@Suite(.serialized) struct NeuralVoiceModuleTests {
    @Test func `the joe voice is listed and speaks through the module with every mark in order`() throws {
        let rig = CaptureRig()
        let configuration = try joeRig(rig)
        let module = try startModule(rig, configurationPath: configuration, environment: try onnxRuntimeEnvironment())
        module.send("LIST VOICES en-US\n")
        let list = try #require(module.expect("200 OK VOICE LIST SENT\n"))
        #expect(list.contains("200-joe (neural)\ten-US\tnone\n"), "\(list)")
        // Chosen, the voice's model loads in the background; the messages after it are neural.
        module.send(settingsBlock(synthesisVoice: "joe"))
        _ = module.expect("203 OK SETTINGS RECEIVED\n")
        #expect(logShows(rig.logPath, "en_US-joe-medium.onnx loaded in "), "\(rig.log)")
        speak(module, fourSentences, settings: settingsBlock(synthesisVoice: "joe"))
        let events = try #require(module.expect("702 END\n", within: 60))
        #expect(
            events
                == "701 BEGIN\n700-__spd_0\n700 INDEX MARK\n700-__spd_1\n700 INDEX MARK\n700-__spd_2\n700 INDEX MARK\n702 END\n"
        )
        module.send("QUIT\n")
        _ = module.expect("210 OK QUIT\n")
        let samples = rig.samples()
        // Four sentences of speech: seconds of it, loud, and not silence between words.
        #expect(samples.count > 22050 * 5, "\(samples.count) samples")
        #expect(rootMeanSquare(samples) > 1000)
        #expect(!rig.log.contains("neural voice unavailable"), "\(rig.log)")
    }

    @Test func `a message while the model loads is spoken at once by espeak-ng, the next by the model`() throws {
        let rig = CaptureRig()
        let configuration = try joeRig(rig)
        // 600 MB of weights: seconds to load, beyond the second a message waits.
        try installTinyVoice("slow", in: rig.folder + "/.local/share/utter/voices", megabytes: 600)
        let module = try startModule(rig, configurationPath: configuration, environment: try onnxRuntimeEnvironment())
        speak(module, "<speak>Hello there.</speak>", settings: settingsBlock(synthesisVoice: "slow"))
        #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        let spoken = rig.log
        #expect(occurrences(of: "neural voice unavailable, the message is spoken by ", in: spoken) == 1, "\(spoken)")
        #expect(spoken.contains("slow/slow.onnx is still loading after "), "\(spoken)")
        // The message did not wait for the model: it was over before the model was there.
        #expect(!spoken.contains("slow.onnx loaded in "), "\(spoken)")
        #expect(logShows(rig.logPath, "slow/slow.onnx loaded in "), "\(rig.log)")
        speak(module, "<speak>Hello again.</speak>", settings: settingsBlock(synthesisVoice: "slow"))
        #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        module.send("QUIT\n")
        _ = module.expect("210 OK QUIT\n")
        let log = rig.log
        #expect(occurrences(of: "neural voice unavailable", in: log) == 1, "the second message is the model's: \(log)")
        // The model's sine, normalised to full scale as Piper's output is; espeak-ng's peaks are lower.
        let peak = rig.samples().map { abs(Int($0)) }.max() ?? 0
        #expect(peak >= 32000, "peak \(peak)")
    }

    @Test func `QUIT while a model loads exits at once, letting the load end by itself`() throws {
        let rig = CaptureRig()
        let configuration = try joeRig(rig)
        let underThreadSanitizer = getenv("UTTER_SANITIZER").map { String(cString: $0) == "thread" } ?? false
        // Seconds to load (slowed down several times under ThreadSanitizer): longer than the module
        // waits for its threads at exit.
        try installTinyVoice(
            "slow", in: rig.folder + "/.local/share/utter/voices", megabytes: underThreadSanitizer ? 150 : 600)
        // ThreadSanitizer sleeps at exit while other threads run (a second by default), then
        // reports each thread that ended unjoined: here long enough for the load to end meanwhile,
        // so a loader thread the module forgot rather than let go is reported (exit status 66, as
        // CI once saw when the joe model's load ended in that second).
        let exitSleep = underThreadSanitizer ? 10.0 : 0
        let module = try startModule(
            rig, configurationPath: configuration,
            environment: try onnxRuntimeEnvironment() + ["TSAN_OPTIONS=atexit_sleep_ms=\(Int(exitSleep * 1000))"])
        module.send(settingsBlock(synthesisVoice: "slow"))
        _ = module.expect("203 OK SETTINGS RECEIVED\n")
        // The slow model's load, not joe's: INIT's settings choose joe (the best English voice
        // installed), whose load comes first and is logged too when LOGLEVEL came before it (under
        // ThreadSanitizer a QUIT sent then stopped the loader before it began the slow one).
        let slowModel = rig.folder + "/.local/share/utter/voices/slow/slow.onnx"
        #expect(logShows(rig.logPath, "loading neural voice model \(slowModel)"), "\(rig.log)")
        module.send("QUIT\n")
        _ = module.expect("210 OK QUIT\n")
        #expect(module.waitForExit(within: exitSleep + 10) == 0, "\(rig.log)")
        // It did not wait for the load: it said so, and (outside ThreadSanitizer) the load never ended.
        #expect(rig.log.contains("exiting without waiting for the "), "\(rig.log)")
        #expect(
            underThreadSanitizer == rig.log.contains("slow.onnx loaded in "),
            "the load ends during the exit only while ThreadSanitizer sleeps there: \(rig.log)")
    }

    @Test func `the joe voice's model loads when chosen, one at a time, and is released when unused`() throws {
        let rig = CaptureRig()
        let configuration = try joeRig(rig)
        writeFile(configuration, readText(configuration) + "NeuralIdleSeconds 3\n")
        try installTinyVoice("tiny", in: rig.folder + "/.local/share/utter/voices", megabytes: 0)
        let module = try startModule(rig, configurationPath: configuration, environment: try onnxRuntimeEnvironment())
        let before = residentKilobytes(module.pid)
        module.send(settingsBlock(synthesisVoice: "joe"))
        _ = module.expect("203 OK SETTINGS RECEIVED\n")
        #expect(logShows(rig.logPath, "en_US-joe-medium.onnx loaded in "), "loaded when chosen, before any message")
        let loaded = residentKilobytes(module.pid)
        speak(module, fourSentences, settings: settingsBlock(synthesisVoice: "joe"))
        let events = try #require(module.expect("702 END\n", within: 60))
        #expect(events.hasSuffix("700-__spd_2\n700 INDEX MARK\n702 END\n"), "\(events)")
        #expect(!rig.log.contains("neural voice unavailable"), "\(rig.log)")
        let spoken = residentKilobytes(module.pid)
        // Unused for NeuralIdleSeconds: released, and the memory with it.
        #expect(
            logShows(rig.logPath, "en_US-joe-medium.onnx released: unused for 3 s (NeuralIdleSeconds)"), "\(rig.log)")
        let released = residentKilobytes(module.pid)
        // Chosen again, then another voice chosen: NeuralVoicesLoaded 1 lets one stay.
        module.send(settingsBlock(synthesisVoice: "joe"))
        _ = module.expect("203 OK SETTINGS RECEIVED\n")
        #expect(logShows(rig.logPath, "en_US-joe-medium.onnx loaded in ", times: 2), "\(rig.log)")
        module.send(settingsBlock(synthesisVoice: "tiny"))
        _ = module.expect("203 OK SETTINGS RECEIVED\n")
        #expect(logShows(rig.logPath, "en_US-joe-medium.onnx released: NeuralVoicesLoaded 1 reached"), "\(rig.log)")
        #expect(logShows(rig.logPath, "tiny/tiny.onnx loaded in "), "\(rig.log)")
        let swapped = residentKilobytes(module.pid)
        module.send("QUIT\n")
        _ = module.expect("210 OK QUIT\n")
        report(
            "sd_utter RSS: \(before) KiB at start, \(loaded) with joe loaded, \(spoken) after speaking with it, \(released) after its idle release, \(swapped) with the tiny model in its place"
        )
        #expect(loaded - before > 60_000, "the joe model takes memory: \(before) → \(loaded) KiB")
        // Under AddressSanitizer freed memory waits in its quarantine: RSS cannot show it going.
        let quarantined = getenv("UTTER_SANITIZER").map { String(cString: $0) == "address" } ?? false
        #expect(spoken - released > 60_000 || quarantined, "released, its memory goes: \(spoken) → \(released) KiB")
        #expect(spoken - swapped > 60_000 || quarantined, "replaced, its memory goes: \(spoken) → \(swapped) KiB")
    }

    /// A module with the joe and tiny voices and `settings`, driven by `session`, then quit;
    /// returns its log and the loudest sample heard (the tiny voice's full-scale sine is louder
    /// than espeak-ng ever is).
    private func tinyVoiceSession(
        settings: String, _ session: (ModuleProcess, _ logPath: String) -> Void
    ) throws -> (log: String, peak: Int) {
        let rig = CaptureRig()
        let configuration = try joeRig(rig, settings: settings)
        try installTinyVoice("tiny", in: rig.folder + "/.local/share/utter/voices", megabytes: 0)
        let module = try startModule(rig, configurationPath: configuration, environment: try onnxRuntimeEnvironment())
        session(module, rig.logPath)
        #expect(module.quit() == 0)
        return (rig.log, rig.samples().map { abs(Int($0)) }.max() ?? 0)
    }

    /// A key and a character on the tiny voice under `settings`, after a message on it if
    /// `speakingFirst`.
    private func echo(settings: String, speakingFirst: Bool) throws -> (log: String, peak: Int) {
        try tinyVoiceSession(settings: settings) { module, logPath in
            // Loaded before the keys come: a sanitizer can slow the load past the second a message waits.
            module.send(settingsBlock(synthesisVoice: "tiny"))
            _ = module.expect("203 OK SETTINGS RECEIVED\n")
            #expect(logShows(logPath, "tiny/tiny.onnx loaded in "), "\(readText(logPath))")
            if speakingFirst {
                speak(module, "<speak>Hello there.</speak>", settings: settingsBlock(synthesisVoice: "tiny"))
                #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
            }
            speak(module, "a", command: "CHAR", settings: settingsBlock(synthesisVoice: "tiny"))
            #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
            speak(module, "space", command: "KEY", settings: settingsBlock(synthesisVoice: "tiny"))
            #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        }
    }

    @Test func `keys and characters on a neural voice not known to be fast are said by its espeak-ng voice`() throws {
        let (log, peak) = try echo(settings: "", speakingFirst: false)
        #expect(
            occurrences(of: "tiny/tiny.onnx are said by ", in: log) == 1
                && log.contains(": it has not spoken yet, so how soon it would be heard is not known"),
            "said once for both: \(log)")
        #expect(peak > 1000 && peak < 32000, "espeak-ng's voice, not the model's sine: peak \(peak)")
    }

    @Test func `with NeuralEcho same, keys and characters stay with the neural voice`() throws {
        let (log, peak) = try echo(settings: "NeuralEcho same\n", speakingFirst: false)
        #expect(!log.contains(" are said by "), "\(log)")
        #expect(peak >= 32000, "the model's sine: peak \(peak)")
    }

    @Test func `a neural voice heard soon enough keeps its keys and characters, one heard later hands them over`()
        throws
    {
        let fast = try echo(settings: "NeuralEchoMilliseconds 10000\n", speakingFirst: true)
        #expect(!fast.log.contains(" are said by "), "\(fast.log)")
        let slow = try echo(settings: "NeuralEchoMilliseconds 0\n", speakingFirst: true)
        #expect(
            occurrences(of: "tiny/tiny.onnx are said by ", in: slow.log) == 1
                && slow.log.contains(" ms (NeuralEchoMilliseconds 0)"), "\(slow.log)")
    }

    /// A message that names a language and no voice, with the joe and tiny voices installed and
    /// `settings`.
    private func messageByLanguage(settings: String) throws -> (log: String, peak: Int) {
        try tinyVoiceSession(settings: settings) { module, logPath in
            module.send(settingsBlock(language: "en-US"))
            _ = module.expect("203 OK SETTINGS RECEIVED\n")
            // The chosen voice's model loads ahead, as for a voice named.
            _ = logShows(logPath, ".onnx loaded in ", within: 10)
            speak(module, "<speak>Hello there.</speak>", settings: settingsBlock(language: "en-US"))
            #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        }
    }

    @Test func `a language with no voice named gets its best installed voice, a neural one, or the one LanguageVoice names`()
        throws
    {
        let best = try messageByLanguage(settings: "")
        #expect(best.log.contains(".onnx loaded in "), "a neural voice speaks en-US: \(best.log)")
        #expect(!best.log.contains("neural voice unavailable"), "\(best.log)")
        let tiny = try messageByLanguage(settings: "LanguageVoice en-US tiny\n")
        #expect(tiny.log.contains("tiny/tiny.onnx loaded in ") && !tiny.log.contains("joe-medium.onnx loaded"), "\(tiny.log)")
        #expect(tiny.peak >= 32000, "the tiny model's sine: peak \(tiny.peak)")
        let espeak = try messageByLanguage(settings: "LanguageVoice en-US \"English (America)\"\n")
        #expect(!espeak.log.contains(".onnx loaded in "), "\(espeak.log)")
        #expect(espeak.peak > 1000 && espeak.peak < 32000, "espeak-ng's voice: peak \(espeak.peak)")
    }

    @Test func `without ONNX Runtime the neural voice is not listed and the log says what to install`() throws {
        let rig = CaptureRig()
        let configuration = try joeRig(rig)
        let module = try startModule(
            rig, configurationPath: configuration,
            environment: ["UTTER_ONNXRUNTIME=/nonexistent/libonnxruntime.so.1"])
        module.send("LIST VOICES en-US\n")
        let list = try #require(module.expect("200 OK VOICE LIST SENT\n"))
        #expect(!list.contains("200-joe"))
        speak(module, "<speak>Still speaking.</speak>", settings: settingsBlock(synthesisVoice: "joe"))
        #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        let log = rig.log
        #expect(log.contains("1 neural voice(s) not listed (joe)"), "\(log)")
        #expect(log.contains("python3 -m pip install --user --break-system-packages --no-deps onnxruntime"))
    }
}

/// A Kokoro voice pack through the module: listed by LIST VOICES, chosen by name, and by
/// language alone as that language's best voice; its marks reported in order.
@Suite(.serialized) struct KokoroVoiceModuleTests {
    @Test func `a Kokoro pack's voices are listed, the Japanese one speaks ja messages with every mark in order`() throws {
        let rig = CaptureRig()
        let configuration = try joeRig(rig)
        let tiny = try TinyKokoro(vocabulary: KokoroVocabulary.kokoroV1)
        let pack = rig.folder + "/.local/share/utter/voices/tiny-ja-voice"
        #expect(rename(tiny.pack, pack) == 0 || ChildProcess.run(["/bin/cp", "-r", tiny.pack, pack]).status == 0)
        let module = try startModule(rig, configurationPath: configuration, environment: try onnxRuntimeEnvironment())
        module.send("LIST VOICES ja\n")
        let list = try #require(module.expect("200 OK VOICE LIST SENT\n"))
        #expect(list.contains("200-jf_alpha (neural)\tja-JP\tnone\n") && list.contains("200-jm_kumo (neural)\tja-JP\tnone\n"), "\(list)")
        #expect(!list.contains("af_heart"), "an English voice is not listed for ja: \(list)")
        // No voice named: ja's best installed voice, the pack's first Japanese one, speaks.
        module.send(settingsBlock(language: "ja", voice: nil))
        _ = module.expect("203 OK SETTINGS RECEIVED\n")
        #expect(
            eventually(within: 60, every: 0.02) { readText(rig.logPath).contains("kokoro.onnx (voice jf_alpha) loaded in ") },
            "\(rig.log)")
        let ssml = "<speak>それでは<mark name=\"__spd_0\"/>発表します。<mark name=\"__spd_1\"/>ありがとうございました。</speak>"
        speak(module, ssml, settings: settingsBlock(language: "ja", voice: nil))
        let events = try #require(module.expect("702 END\n", within: 60))
        #expect(events == "701 BEGIN\n700-__spd_0\n700 INDEX MARK\n700-__spd_1\n700 INDEX MARK\n702 END\n", "\(events)")
        // Another voice of the pack shares its model: only its styles are read.
        module.send(settingsBlock(language: "ja", voice: nil, synthesisVoice: "jm_kumo"))
        _ = module.expect("203 OK SETTINGS RECEIVED\n")
        #expect(
            eventually(within: 60, every: 0.02) { readText(rig.logPath).contains("kokoro.onnx (voice jm_kumo) loaded in ") },
            "\(rig.log)")
        speak(module, "<speak>ハイ。</speak>", settings: settingsBlock(language: "ja", voice: nil, synthesisVoice: "jm_kumo"))
        #expect(module.expect("702 END\n", within: 60) == "701 BEGIN\n702 END\n")
        module.send("QUIT\n")
        _ = module.expect("210 OK QUIT\n")
        #expect(!rig.log.contains("neural voice unavailable"), "\(rig.log)")
        #expect(rig.log.contains("tiny-ja-voice/kokoro.onnx (voice jf_alpha) loaded in "), "\(rig.log)")
        // The model's full-scale sine was heard, not espeak-ng's voice.
        #expect((rig.samples().map { abs(Int($0)) }.max() ?? 0) >= 32000)
    }
}
