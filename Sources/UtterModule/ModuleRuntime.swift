// What INIT and AUDIO set up: the configuration, the voices, the engine and the audio device.
import ALSAOutput
import Configuration
import Logging
import ModuleProtocol
import Playback
import RegularFiles
import Speech
import System
import UtterKit
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
        let engine: EspeakEngine
        do {
            engine = try EspeakEngine()
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
        let catalogue = VoiceCatalogue(voices: voices)
        var backend = SoundSession.resolve(configuration.audioBackend, alsaAsked: configuration.asksForALSA)
        var plugin: SoundServerPlugin? = nil
        if configuration.audioBackend == .auto && configuration.asksForALSA {
            (backend, plugin) = routeForALSA()
        }
        let pipeline: SpeechPipeline
        let audio: ALSASink?
        do {
            (pipeline, audio) = try makePipeline(engine: engine, backend: backend, plugin: plugin)
        } catch {
            logger.critical("\(error)")
            if replying { send(.initializationFailed(reason: "\(error)")) }
            return
        }
        runtime = Runtime(
            factory: JobFactory(configuration: configuration, catalogue: catalogue, words: wordBook()),
            pipeline: pipeline, audio: audio, backend: backend, plugin: plugin, espeakVoices: espeakVoices,
            voiceSignature: voiceSignature)
        if let plugin { logPluginRoute(plugin, backend: backend) }
        logger.notice(
            "initialised",
            metadata: [
                "espeak-ng voices": "\(espeakVoices.count)", "clip voices": "\(clipVoices.count)",
                "neural voices": "\(neuralVoices.count)",
                "voice list entries": "\(catalogue.listings.count)", "audio": "\(backend.rawValue)",
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
        runtime.pipeline.synthesizer.prepare(neural)
    }

    /// Starts the engine's pipeline playing through `backend` (resolved: not `.auto`), on the
    /// server and sink `plugin` names when it stands in for an ALSA plugin device.
    func makePipeline(
        engine: consuming EspeakEngine, backend: AudioBackend, plugin: SoundServerPlugin? = nil
    ) throws -> (SpeechPipeline, ALSASink?) {
        var audio: ALSASink?
        let pipeline = try SpeechPipeline(
            engine: engine, logger: logSink.logger(label: "utter.synth"),
            japaneseDictionary: configuration.japaneseDictionary,
            neural: NeuralModelStore.Settings(
                loadedLimit: configuration.neuralVoicesLoaded, idleSeconds: configuration.neuralIdleSeconds)
        ) { wake, sampleRate in
            if let server = SoundSession.server(for: backend) {
                return try SoundSession.sink(
                    on: server, configuration: configuration, sampleRate: sampleRate, wake: wake,
                    address: plugin?.address, sink: plugin?.sink)
            }
            let device = try ALSASink(configuration: audioConfiguration(sampleRate: sampleRate), controlWake: wake)
            audio = device
            return device
        }
        if let notice = pipeline.startNotice { logger.notice("\(notice)") }
        // A corked or sleeping stream costs nothing in silence: only an ALSA device is closed when idle.
        pipeline.idleSeconds = backend == .alsa ? configuration.audioIdleSeconds : 0
        return (pipeline, audio)
    }

    /// Where `AudioBackend auto` plays the ALSA device in use (`SoundSession.route(forALSA:)`).
    func routeForALSA() -> (AudioBackend, SoundServerPlugin?) {
        SoundSession.route(forALSA: audioConfiguration(sampleRate: 22050))
    }

    func logPluginRoute(_ plugin: SoundServerPlugin, backend: AudioBackend) {
        let device = audioConfiguration(sampleRate: 22050).deviceName
        var where_ = plugin.address.map { " at \($0)" } ?? ""
        if let sink = plugin.sink { where_ += ", \(backend == .pulse ? "sink" : "node") \(sink)" }
        logger.notice(
            "audio backend: \(backend.rawValue), for ALSA's device '\(device)', which is \(plugin.server.rawValue)'s plugin\(where_) (AudioBackend auto: a STOP fades there, through the plugin it would cut)"
        )
        if backend == .pipewire && plugin.sink != nil {
            logger.warning("the plugin's playback_node \(plugin.sink!) is not followed: Utter plays to PipeWire's default")
        }
    }

    /// Plays the device speech-dispatcher's AUDIO block names, as `AudioBackend auto` does when that
    /// block asks for ALSA: through the native backend of the server whose plugin the device is,
    /// else through ALSA. Nothing has been spoken yet, so the pipeline is made again if it changes.
    func followALSA() {
        let (backend, plugin) = routeForALSA()
        // (No binding of the runtime here: it would keep the old engine alive past its retirement.)
        guard runtime != nil else { return }
        if runtime?.backend == backend && runtime?.plugin == plugin {
            if let plugin { logPluginRoute(plugin, backend: backend) }
            return
        }
        guard let (factory, espeakVoices, voiceSignature) = retireRuntime() else { return }
        do {
            let (pipeline, audio) = try makePipeline(engine: try EspeakEngine(), backend: backend, plugin: plugin)
            runtime = Runtime(
                factory: factory, pipeline: pipeline, audio: audio, backend: backend, plugin: plugin,
                espeakVoices: espeakVoices, voiceSignature: voiceSignature)
        } catch {
            logger.critical("cannot restart the engine for \(backend.rawValue) (\(error))")
            return
        }
        if let plugin {
            logPluginRoute(plugin, backend: backend)
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
        if let stuck = current.pipeline.shutdown(until: MonotonicClock.now + Self.shutdownWait) {
            logger.error("cannot switch the audio backend: the \(stuck) did not stop; staying on \(current.backend.rawValue)")
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

    func audioConfiguration(sampleRate: Int) -> AudioConfiguration {
        let device = configuration.audioDevice ?? serverAudioDevice ?? "default"
        let periodFrames = max(32, sampleRate * configuration.periodMilliseconds / 1000)
        var alsaText: String?
        if let path = configuration.audioConfigurationFile {
            switch readTextFile(path) {
            case .success(let text): alsaText = text
            case .failure(let error): logger.error("AudioConfigurationFile \(path) cannot be read (\(error))")
            }
        }
        return AudioConfiguration(
            deviceName: device, alsaConfigText: alsaText, sampleRate: sampleRate, periodFrames: periodFrames,
            bufferFrames: periodFrames * configuration.bufferPeriods)
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
        if let runtime, let audio = runtime.audio {
            let audioConfiguration = audioConfiguration(sampleRate: audio.configuration.sampleRate)
            audio.setDevice(audioConfiguration)
            runtime.pipeline.synthesizer.prepareAudio()
            runtime.pipeline.armIdleTimer()
            logger.info("audio device set", metadata: ["device": "\(audioConfiguration.deviceName.debugDescription)"])
        } else if let runtime {
            runtime.pipeline.synthesizer.prepareAudio()
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
            catalogue: VoiceCatalogue(voices: runtime.espeakVoices + clipVoices + neuralVoices),
            words: runtime.factory.words)
        runtime.voiceSignature = signature
        self.runtime = runtime
        logger.notice(
            "voice folders changed: \(clipVoices.count) clip voices, \(runtime.factory.catalogue.listings.count) voice list entries"
        )
    }
}
