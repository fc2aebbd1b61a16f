import ArgumentParser
import AudioOutput
import CUtterShims
import Configuration
import Glibc
import Logging
import ModuleProtocol
import SSML
import Speech
import UtterModule
import Voices

extension UtterCommand {
    struct Say: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Speak text aloud through ALSA with an Utter voice.",
            discussion: "Text is SSML when it starts with <speak>; otherwise it is read as plain text.")

        @Option(name: .shortAndLong, help: "The voice, by name or identifier (see 'utter voices').")
        var voice: String?

        @Option(name: .shortAndLong, help: "The language, when no voice is given (e.g. de, en-GB).")
        var language: String?

        @Option(name: .shortAndLong, help: "Speech rate from -100 to 100.")
        var rate: Int = 0

        @Option(name: .long, help: "The ALSA device to play on.")
        var device: String = "default"

        @Argument(help: "The text to speak.")
        var text: [String]

        func validate() throws {
            guard (-100...100).contains(rate) else { throw ValidationError("--rate must be from -100 to 100.") }
            guard !text.joined().isEmpty else { throw ValidationError("Give the text to speak.") }
        }

        func run() throws {
            let logSink = LogSink(level: .warning)
            let engine = try EspeakEngine()
            let espeakVoices = engine.voices()
            let catalogue = VoiceCatalogue(
                voices: espeakVoices
                    + VoiceLibrary.clipVoices(
                        configuration: UtterConfiguration(), espeakVoices: espeakVoices,
                        logger: logSink.logger(label: "utter")))
            if let voice, catalogue.voice(named: voice) == nil {
                throw ValidationError("No voice is called '\(voice)'. Run 'utter voices' to see them.")
            }
            var settings = SpeechSettings()
            settings.synthesisVoice = voice
            settings.language = language ?? voice.map { _ in nil } ?? "en-US"
            settings.rate = rate
            let joined = text.joined(separator: " ")
            let ssml = joined.hasPrefix("<speak") ? joined : "<speak>\(SSMLText.escape(joined))</speak>"
            let factory = JobFactory(configuration: UtterConfiguration(), catalogue: catalogue)
            guard let (job, chosen, _) = factory.job(id: 1, kind: .speak, text: ssml, settings: settings) else {
                throw UtterError("espeak-ng has no voices installed; install espeak-ng-data.")
            }
            let wakeFD = CUtterShims_eventfd(1)
            let period = engine.sampleRate / 50
            let configuration = AudioConfiguration(
                deviceName: device, sampleRate: engine.sampleRate, periodFrames: period, bufferFrames: period * 4)
            do {
                // Fail early, with ALSA's reason, rather than speak to nobody.
                _ = try PCMDevice(configuration: configuration)
            } catch {
                throw UtterError("\(error)")
            }
            let audio = AudioOutput(configuration: configuration, controlWakeFD: wakeFD)
            audio.start()
            let synthesizer = Synthesizer(
                engine: engine, audio: audio, controlWakeFD: wakeFD, logger: logSink.logger(label: "utter"))
            synthesizer.start()
            defer {
                synthesizer.shutdown()
                audio.shutdown()
            }
            print("Speaking with \(chosen.name)…")
            synthesizer.submit(job)
            var end: UInt64?
            while true {
                for event in synthesizer.takeEvents() {
                    if case .end(_, let position) = event { end = position }
                }
                if let end {
                    audio.notify(whenPlayedReaches: end)
                    if audio.playedPosition >= end { break }
                }
                var descriptor = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, 100)
                var value: UInt64 = 0
                _ = read(wakeFD, &value, 8)
            }
            if let failure = audio.lastDeviceFailure {
                throw UtterError("The audio device failed while speaking: \(failure)")
            }
        }
    }
}
