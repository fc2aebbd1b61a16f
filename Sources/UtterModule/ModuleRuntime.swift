// What INIT and AUDIO set up: the configuration, the voices, the engine and the audio device.
import Configuration
import Logging
import ModuleProtocol
import RegularFiles
import System
import UtterEngine
import Voices

extension ModuleServer {
    /// Sets up the engine and audio; `replying` is false when a message finds none (a failed INIT
    /// or backend switch): the set-up is then tried again silently, the message's reply to follow.
    func initialize(replying: Bool = true) {
        guard runtime == nil else {
            logger.warning("INIT received twice; already initialised")
            send(.initialized(details: ["Utter is already initialised."]))
            return
        }
        loadConfiguration()
        let engine: VoiceEngine
        do {
            engine = try VoiceEngine()
        } catch {
            logger.critical("\(error)")
            if replying { send(.initializationFailed(reason: "\(error)")) }
            return
        }
        let espeakVoices = engine.voices()
        let voiceSignature = VoiceLibrary.signature(of: VoiceLibrary.folders(configuration: configuration))
        let clipVoices = VoiceLibrary.clipVoices(
            configuration: configuration, espeakVoices: espeakVoices, logger: logSink.logger(label: "utter.voices"))
        let neuralVoices = NeuralVoiceLibrary.voices(
            configuration: configuration, taken: espeakVoices + clipVoices,
            logger: logSink.logger(label: "utter.voices"))
        let voices = espeakVoices + clipVoices + neuralVoices
        let catalogue = VoiceCatalogue(voices: voices, languageVoices: configuration.languageVoices)
        let route = SoundSession.Route(configuration: configuration, alsaAsked: configuration.asksForALSA) {
            alsaDevice()
        }
        let speech: SpeechPipeline
        do {
            speech = try startSpeech(engine: engine, route: route)
        } catch {
            logger.critical("\(error)")
            if replying { send(.initializationFailed(reason: "\(error)")) }
            return
        }
        runtime = Runtime(
            factory: JobFactory(configuration: configuration, catalogue: catalogue, words: wordBook()),
            speech: speech, route: route, espeakVoices: espeakVoices, voiceSignature: voiceSignature)
        route.logPlugin(device: alsaDevice().name, to: logger)
        logger.notice(
            "initialised",
            metadata: [
                "espeak-ng voices": "\(espeakVoices.count)", "clip voices": "\(clipVoices.count)",
                "neural voices": "\(neuralVoices.count)",
                "voice list entries": "\(catalogue.listings.count)", "audio": "\(route.backend.rawValue)",
            ])
        openHistory()
        if replying { send(.initialized(details: ["Utter: \(voices.count) voices ready."])) }
        prepareChosenVoice()
    }

    /// Starts loading, in the background, the model of the neural voice the settings now choose
    /// (after INIT, SET voice, SET language), so that its first message need not wait for it.
    func prepareChosenVoice() {
        guard let runtime, let (voice, _) = runtime.factory.voice(for: settings),
            case .neural(let neural) = voice.kind
        else { return }
        runtime.speech.prepare(neural)
    }

    /// Starts `engine` speaking on `route`; an ALSA route opens the device the settings name.
    func startSpeech(engine: consuming VoiceEngine, route: SoundSession.Route) throws -> SpeechPipeline {
        let speech = try SpeechPipeline(
            engine: engine, output: route.output { alsaDevice() }, configuration: configuration,
            logger: logSink.logger(label: "utter.synth"))
        if let notice = speech.startNotice { logger.notice("\(notice)") }
        return speech
    }

    /// Plays the device speech-dispatcher's AUDIO block names, as `AudioBackend auto` does when that
    /// block asks for ALSA: through the native backend of the server whose plugin the device is,
    /// else through ALSA. Nothing has been spoken yet, so the pipeline is made again if it changes.
    func followALSA() {
        let route = SoundSession.Route(forALSA: alsaDevice())
        // (No binding of the runtime here: it would keep the old engine alive past its retirement.)
        guard runtime != nil else { return }
        if runtime?.route == route {
            route.logPlugin(device: alsaDevice().name, to: logger)
            return
        }
        guard let (factory, espeakVoices, voiceSignature) = retireRuntime() else { return }
        do {
            let speech = try startSpeech(engine: try VoiceEngine(), route: route)
            runtime = Runtime(
                factory: factory, speech: speech, route: route, espeakVoices: espeakVoices,
                voiceSignature: voiceSignature)
        } catch {
            logger.critical("cannot restart the engine for \(route.backend.rawValue) (\(error))")
            return
        }
        if route.pluginServer != nil {
            route.logPlugin(device: alsaDevice().name, to: logger)
        } else {
            logger.notice("audio backend: alsa, for the device speech-dispatcher names (AudioBackend auto)")
        }
        prepareChosenVoice()  // the new pipeline has no model loaded
    }

    /// Stops the current pipeline and lets it go (with its engine: libespeak-ng keeps its state in
    /// globals, so the old engine must be gone before a new one starts); what the next runtime
    /// keeps of it, or nil when it did not stop.
    private func retireRuntime() -> (JobFactory, [Voice], [VoiceLibrary.Stamp])? {
        guard let current = runtime else { return nil }
        if let stuck = current.speech.shutdown(until: MonotonicClock.now + Self.shutdownWait) {
            logger.error(
                "cannot switch the audio backend: the \(stuck) did not stop; staying on \(current.route.backend.rawValue)"
            )
            return nil
        }
        runtime = nil
        return (current.factory, current.espeakVoices, current.voiceSignature)
    }

    /// Key name tables from the configured folders, else the standard ones.
    func wordBook() -> WordBook {
        let folders =
            configuration.keyNamesFolders.isEmpty
            ? WordBook.standardKeyFolders(environment: Environment.value)
            : configuration.keyNamesFolders
        return WordBook(
            keyFolders: folders, symbolsFolder: configuration.symbolsFolder,
            logger: logSink.logger(label: "utter.words"))
    }

    func loadConfiguration() {
        guard let path = configurationPath else { return }
        let text: String
        switch readTextFile(path) {
        case .success(let read): text = read
        case .failure(let error) where error.isMissing:
            logger.info("no configuration at \(path); using the defaults")
            return
        case .failure(let error):
            logger.warning("configuration \(path) cannot be read (\(error)); using the defaults")
            return
        }
        let (parsed, issues) = UtterConfiguration.parse(text)
        for issue in issues {
            logger.warning("\(path): \(issue)")
        }
        configuration = parsed
        if let level = parsed.logLevel { logSink.setSpeechDispatcherLevel(level) }
    }

    /// The ALSA device the configuration, else speech-dispatcher's AUDIO block, names (read again
    /// each time: a bad `AudioConfigurationFile` is logged where it is used).
    func alsaDevice() -> ALSADevice {
        let device = configuration.audioDevice ?? serverAudioDevice ?? "default"
        var alsaText: String?
        if let path = configuration.audioConfigurationFile {
            switch readTextFile(path) {
            case .success(let text): alsaText = text
            case .failure(let error): logger.error("AudioConfigurationFile \(path) cannot be read (\(error))")
            }
        }
        return ALSADevice(name: device, configurationText: alsaText)
    }

    func configureAudio(_ block: SettingsBlock) {
        let methods = block.value(of: "audio_output_method")?.split(separator: ",").map {
            $0.trimmingSpaces()
        }
        if methods?.first == "server" {
            // Refusing makes the server send its real audio settings; Utter plays the audio itself.
            send(.audioRefused(reason: "Utter plays its own audio"))
            return
        }
        if let device = block.value(of: "audio_alsa_device"), device != "NULL", !device.isEmpty {
            serverAudioDevice = device
        }
        send(.audioInitialized)
        if configuration.audioBackend == .auto && methods?.first == "alsa" { followALSA() }
        if let runtime, runtime.speech.playsALSADevice {
            let device = alsaDevice()
            runtime.speech.setALSADevice(device)
            runtime.speech.prepareAudio()
            runtime.speech.armIdleTimer()
            logger.info("audio device set", metadata: ["device": "\(device.name.debugDescription)"])
        } else if let runtime {
            runtime.speech.prepareAudio()
        }
    }

    /// Reads the clip voices again if their folders changed since they were read, so a voice
    /// installed or removed shows in the next voice list (and can be chosen) without a restart.
    func refreshVoicesIfChanged() {
        guard var runtime else { return }
        let signature = VoiceLibrary.signature(of: VoiceLibrary.folders(configuration: configuration))
        guard signature != runtime.voiceSignature else { return }
        let clipVoices = VoiceLibrary.clipVoices(
            configuration: configuration, espeakVoices: runtime.espeakVoices,
            logger: logSink.logger(label: "utter.voices"))
        let neuralVoices = NeuralVoiceLibrary.voices(
            configuration: configuration, taken: runtime.espeakVoices + clipVoices,
            logger: logSink.logger(label: "utter.voices"))
        runtime.factory = JobFactory(
            configuration: configuration,
            catalogue: VoiceCatalogue(
                voices: runtime.espeakVoices + clipVoices + neuralVoices, languageVoices: configuration.languageVoices),
            words: runtime.factory.words)
        runtime.voiceSignature = signature
        self.runtime = runtime
        logger.notice(
            "voice folders changed: \(clipVoices.count) clip voices, \(runtime.factory.catalogue.listings.count) voice list entries"
        )
    }
}
