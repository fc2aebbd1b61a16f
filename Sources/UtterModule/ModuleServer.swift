import AudioOutput
import Configuration
import Glibc
import Logging
import ModuleProtocol
import Playback
import RegularFiles
import Speech
import System
import UtterKit
import Voices

/// The control thread: reads commands from speech-dispatcher, answers them, drives synthesis and
/// playback, and is the only writer of stdout.
public final class ModuleServer {
    private let configurationPath: String?
    private let logSink: LogSink
    private let logger: Logger
    private let inputFD: Int32
    private var output: OutputChannel
    /// SIGTERM and SIGINT, read in the poll loop so a message in progress can end with 703.
    private let signals: SignalFD?

    private var splitter = LineSplitter()
    private var reader = CommandReader()
    private var settings = SpeechSettings()
    private var machine = MessageStateMachine()
    private var configuration = UtterConfiguration()
    private var serverAudioDevice: String?
    private var runtime: Runtime?
    private var lastJob: UInt64 = 0
    private var isFinished = false

    /// Where playback of the current message is held while a PAUSE waits for its mark.
    private var pauseLimit: UInt64?

    private struct Runtime {
        var factory: JobFactory
        var pipeline: SpeechPipeline
        /// The pipeline's sink, as the device it is (AUDIO blocks change it).
        var audio: AudioOutput
        var espeakVoices: [Voice]
        /// The voice folders as they were when the clip voices were read.
        var voiceSignature: [VoiceLibrary.Stamp]
    }

    /// A server for `configurationPath` (argv[1]; may name a missing file) on the given descriptors.
    public init(configurationPath: String?, logSink: LogSink, inputFD: Int32 = 0, outputFD: Int32 = 1) {
        self.configurationPath = configurationPath
        self.logSink = logSink
        self.logger = logSink.logger(label: "utter")
        self.inputFD = inputFD
        self.output = OutputChannel(fd: outputFD)
        // Blocked here, before any thread starts, so every thread inherits the mask and the
        // signals are only ever delivered through the signalfd.
        self.signals = SignalFD(blocking: [SIGTERM, SIGINT])
    }

    /// Serves until QUIT, stdin EOF or a closed stdout; returns the process exit status.
    /// How long exiting waits for the synth and render threads.
    static let shutdownWait: UInt64 = 500_000_000

    /// Whether `run` returned with a thread still blocked in a device or engine call: the process
    /// must then end with `_exit`, since running exit handlers under that thread is unsafe.
    public private(set) var leavesThreadsRunning = false

    public func run() -> Int32 {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while !isFinished && output.isOpen {
            let wake = runtime?.pipeline.wake
            let descriptors = [inputFD, signals?.rawValue ?? -1, wake?.rawValue ?? -1]
            let timeout = runtime?.pipeline.deadline.map { deadline in
                let now = MonotonicClock.now
                return deadline > now ? deadline - now : 0
            }
            let ready: [Bool]
            switch poll(descriptors, timeout: timeout) {
            case .success(let flags): ready = flags
            case .failure(let error):
                logger.critical("poll failed (\(error)); exiting")
                isFinished = true
                continue
            }
            if ready[2] { wake?.reset() }
            if ready[1], let number = signals?.take() {
                logger.notice("signal \(number) received: ending the message in progress and exiting")
                perform(machine.abandon())
                break
            }
            if ready[0] {
                let count = buffer.withUnsafeMutableBytes { read(inputFD, $0.baseAddress, $0.count) }
                if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) {
                    logger.info("stdin closed: speech-dispatcher is gone; exiting")
                    _ = machine.abandon()
                    break
                }
                if count > 0 {
                    splitter.append(buffer[0..<count]) { line in
                        if line.isTruncated {
                            logger.error("a protocol line over \(splitter.maximumLineLength) bytes was cut")
                        }
                        handle(line.bytes)
                    }
                }
            }
            pumpPlayback()
            runtime?.pipeline.reportHealth()
            releaseIdleDevice()
        }
        if !output.isOpen {
            logger.notice("stdout closed by speech-dispatcher; exiting")
        }
        shutdown()
        return 0
    }

    // MARK: - Commands

    private func handle(_ line: [UInt8]) {
        guard !isFinished, let result = reader.read(line) else { return }
        switch result {
        case .blockStarted(let kind):
            switch kind {
            case .audio: send(.receivingAudioSettings)
            case .logLevel: send(.receivingLogLevel)
            case .settings: send(.receivingSettings)
            case .message: send(.receivingMessage)
            }
        case .command(let command):
            handle(command)
        }
    }

    private func handle(_ command: Command) {
        switch command {
        case .initialize:
            initialize()
        case .audio(let block):
            configureAudio(block)
        case .logLevel(let block):
            if let text = block.value(of: "log_level"), let level = Int(text), (0...5).contains(level) {
                if configuration.logLevel == nil { logSink.setSpeechDispatcherLevel(level) }
            } else {
                logger.warning("LOGLEVEL block without a level 0-5: \(block.settings) \(block.malformedLines)")
            }
            send(.logLevelSet)
        case .set(let block):
            for problem in settings.apply(block) { logger.warning("\(problem)") }
            send(.settingsReceived)
        case .message(let kind, let data):
            speak(kind, data)
        case .stop:
            perform(machine.stop())
        case .pause:
            perform(machine.pause())
        case .listVoices(let language, let variant):
            listVoices(language: language, variant: variant)
        case .debugOn(let path):
            switch logSink.openDebugFile(path) {
            case .success:
                send(.debuggingOn)
                logger.info("debug log opened", metadata: ["path": "\(path)"])
            case .failure(let error):
                logger.error("cannot open debug log \(path.debugDescription) (\(error))")
                send(.cannotOpenDebugFile)
            }
        case .debugOff:
            logSink.closeDebugFile()
            send(.debuggingOff)
        case .quit:
            perform(machine.abandon())
            send(.quitting)
            isFinished = true
        case .unknown(let line):
            logger.error("unknown command \(String(line.prefix(200)).debugDescription)")
            send(.unknownCommand)
        }
    }

    private func initialize() {
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
            send(.initializationFailed(reason: "\(error)"))
            return
        }
        let espeakVoices = engine.voices()
        let voiceSignature = VoiceLibrary.signature(of: VoiceLibrary.folders(configuration: configuration))
        let clipVoices = VoiceLibrary.clipVoices(
            configuration: configuration, espeakVoices: espeakVoices, logger: logSink.logger(label: "utter.voices"))
        let voices = espeakVoices + clipVoices
        let catalogue = VoiceCatalogue(voices: voices)
        let pipeline: SpeechPipeline
        var audio: AudioOutput?
        do {
            pipeline = try SpeechPipeline(engine: engine, logger: logSink.logger(label: "utter.synth")) {
                wake, sampleRate in
                let device = try AudioOutput(configuration: audioConfiguration(sampleRate: sampleRate), controlWake: wake)
                audio = device
                return device
            }
        } catch {
            logger.critical("\(error)")
            send(.initializationFailed(reason: "\(error)"))
            return
        }
        if let notice = pipeline.startNotice { logger.notice("\(notice)") }
        pipeline.idleSeconds = configuration.audioIdleSeconds
        runtime = Runtime(
            factory: JobFactory(configuration: configuration, catalogue: catalogue, words: wordBook()),
            pipeline: pipeline, audio: audio!, espeakVoices: espeakVoices, voiceSignature: voiceSignature)
        logger.notice(
            "initialised: \(espeakVoices.count) espeak-ng voices, \(clipVoices.count) clip voices, \(catalogue.listings.count) voice list entries"
        )
        send(.initialized(details: ["Utter: \(voices.count) voices ready."]))
    }

    /// Key name tables from the configured folders, else the standard ones.
    private func wordBook() -> WordBook {
        let folders =
            configuration.keyNamesFolders.isEmpty
            ? WordBook.standardKeyFolders { name in getenv(name).map { String(cString: $0) } }
            : configuration.keyNamesFolders
        return WordBook(
            keyFolders: folders, symbolsFolder: configuration.symbolsFolder,
            logger: logSink.logger(label: "utter.words"))
    }

    private func loadConfiguration() {
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

    private func audioConfiguration(sampleRate: Int) -> AudioConfiguration {
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

    private func configureAudio(_ block: SettingsBlock) {
        let methods = block.value(of: "audio_output_method")?.split(separator: ",").map {
            $0.trimmingCharacters(in: " ")
        }
        if methods?.first == "server" {
            // Refusing makes the server send its real audio settings; Utter plays the audio itself.
            send(.audioRefused(reason: "Utter plays its own audio through ALSA"))
            return
        }
        if let device = block.value(of: "audio_alsa_device"), device != "NULL", !device.isEmpty {
            serverAudioDevice = device
        }
        send(.audioInitialized)
        if let runtime {
            let audioConfiguration = audioConfiguration(sampleRate: runtime.audio.configuration.sampleRate)
            runtime.audio.setDevice(audioConfiguration)
            runtime.pipeline.synthesizer.prepareAudio()
            runtime.pipeline.armIdleTimer()
            logger.info("audio device \(audioConfiguration.deviceName.debugDescription)")
        }
    }

    /// Reads the clip voices again if their folders changed since they were read, so a voice
    /// installed or removed shows in the next voice list (and can be chosen) without a restart.
    private func refreshVoicesIfChanged() {
        guard var runtime else { return }
        let signature = VoiceLibrary.signature(of: VoiceLibrary.folders(configuration: configuration))
        guard signature != runtime.voiceSignature else { return }
        let clipVoices = VoiceLibrary.clipVoices(
            configuration: configuration, espeakVoices: runtime.espeakVoices,
            logger: logSink.logger(label: "utter.voices"))
        runtime.factory = JobFactory(
            configuration: configuration, catalogue: VoiceCatalogue(voices: runtime.espeakVoices + clipVoices),
            words: runtime.factory.words)
        runtime.voiceSignature = signature
        self.runtime = runtime
        logger.notice(
            "voice folders changed: \(clipVoices.count) clip voices, \(runtime.factory.catalogue.listings.count) voice list entries"
        )
    }

    private func listVoices(language: String?, variant: String?) {
        refreshVoicesIfChanged()
        guard let runtime, !runtime.factory.catalogue.listings.isEmpty else {
            send(.cannotListVoices)
            return
        }
        // Every voice is listed with the variant `none` (voice types choose variants), so a request
        // for another variant matches nothing; like the reference modules, nothing matching is a 304.
        let listings = runtime.factory.catalogue.listings(language: language).filter { _ in
            variant.map { $0.lowercased() == "none" } ?? true
        }
        guard !listings.isEmpty else {
            logger.info("LIST VOICES \(language ?? "") \(variant ?? ""): no voice matches")
            send(.cannotListVoices)
            return
        }
        send(.voiceList(listings.map { VoiceListEntry(name: $0.name, language: $0.language.description) }))
    }

    private func speak(_ kind: MessageKind, _ data: MessageData) {
        if data.hadInvalidUTF8 {
            logger.warning("\(kind.rawValue) data is not valid UTF-8; invalid bytes are spoken as U+FFFD")
        }
        if kind != .speak && data.lineCount > 1 {
            logger.error("\(kind.rawValue) data has \(data.lineCount) lines; it must have one")
            send(.dataMoreThanOneLine)
            return
        }
        if data.text.isEmpty {
            logger.error("\(kind.rawValue) without text")
            send(.cannotSpeak)
            return
        }
        if runtime == nil { initialize() }
        if let name = settings.synthesisVoice, runtime?.factory.catalogue.voice(named: name) == nil {
            refreshVoicesIfChanged()  // perhaps a voice installed since
        }
        guard let runtime else {
            send(.cannotSpeak)
            return
        }
        if let current = machine.currentMessage {
            // The server never does this; if it does, it believes the old message is over.
            logger.error("a new message arrived while message \(current) was speaking; dropping the old one silently")
            runtime.pipeline.halt(through: current)
            machine = MessageStateMachine()
        }
        lastJob += 1
        guard
            let (job, voice, reason) = runtime.factory.job(id: lastJob, kind: kind, text: data.text, settings: settings)
        else {
            logger.error("no voice to speak with")
            send(.cannotSpeak)
            return
        }
        if kind == .soundIcon && job.soundFiles.isEmpty {
            logger.warning("sound icon \(data.text.debugDescription) is not a file name; nothing is played")
        }
        logger.debug(
            "message \(job.id): \(kind.rawValue), \(data.text.utf8.count) bytes, voice \(voice.name.debugDescription) (\(reason))"
        )
        resetPlayback()
        runtime.pipeline.limitPlayback(to: nil)
        send(.speaking)
        machine.accept(job.id)
        runtime.pipeline.submit(job)
    }

    // MARK: - Playback events

    /// Forgets the events of every message so far (the last one ended).
    private func resetPlayback() {
        runtime?.pipeline.finish(through: lastJob)
        pauseLimit = nil
    }

    /// Hands the state machine every event whose sample has been heard.
    private func pumpPlayback() {
        guard let pipeline = runtime?.pipeline else { return }
        pipeline.pump(afterReceiving: { if machine.isPausePending { limitPlaybackForPause() } }) { event in
            let job = event.job
            guard machine.currentMessage == job else { return }
            switch event {
            case .audioStart: perform(machine.audioStarted(job))
            case .mark(_, let name, _): perform(machine.markReached(name, in: job))
            case .end: perform(machine.audioFinished(job))
            case .word, .progress: break
            }
        }
    }

    /// Keeps playback from running past the next `__spd_` mark while a PAUSE is pending.
    ///
    /// Until that mark is known, playback may not run past the point up to which the synth thread
    /// has reported its marks, so the pause lands exactly on the mark and nothing after it is heard.
    private func limitPlaybackForPause() {
        guard let pipeline = runtime?.pipeline else { return }
        let limit = pipeline.tracker.pauseLimit { event in
            if case .mark(_, let name, _) = event { return name.hasPrefix("__spd_") }
            return false
        }
        guard limit != pauseLimit else { return }
        pauseLimit = limit
        pipeline.limitPlayback(to: limit)
    }

    private func perform(_ actions: [MessageStateMachine.Action]) {
        for action in actions {
            switch action {
            case .send(let event):
                output.send(event.encoded)
                if event.isTerminal {
                    resetPlayback()
                    runtime?.pipeline.armIdleTimer()
                }
            case .haltPlayback(let reason):
                guard let runtime, let job = machine.currentMessage else { continue }
                runtime.pipeline.halt(through: job)
                logger.debug("message \(job): halted for \(reason)")
                // The terminal event goes out now rather than when the render thread confirms
                // silence: that thread may be blocked on the device for a period (or for PulseAudio's
                // first fill, over a second), and the server waits for 703/704 with no timeout while
                // every client waits for it. It handles the stop before it touches a later message's
                // samples, so the next message cannot overlap this one.
                perform(machine.playbackHalted(job))
            case .pauseRequested:
                pumpPlayback()
                limitPlaybackForPause()
            }
        }
    }

    /// Closes the audio device once the module has been idle long enough (see `AudioIdleSeconds`).
    private func releaseIdleDevice() {
        guard machine.currentMessage == nil else { return }
        runtime?.pipeline.releaseIdleDevice()
    }

    private func send(_ reply: Reply) {
        output.send(reply.encoded)
    }

    /// Stops the synth and render threads, waiting for them at most `shutdownWait`: the server
    /// kills a module that has not exited about a second after QUIT, and a sound server that
    /// hangs can hold either thread in a device call for good.
    private func shutdown() {
        guard let runtime else { return }
        if let job = machine.currentMessage {
            runtime.pipeline.halt(through: job)
        }
        if let stuck = runtime.pipeline.shutdown(until: MonotonicClock.now + Self.shutdownWait) {
            // Notice, not error: a sound server can hold a write that long (a PulseAudio null sink
            // that was idle held one for 1.7 s, and did at the end of the Orca test), and nothing
            // is lost by not waiting.
            logger.notice(
                "exiting without waiting for the \(stuck), still in an audio device or engine call after \(Self.shutdownWait / 1_000_000) ms (a slow or hung sound server?)"
            )
            // Kept, not freed: the stuck thread still uses the ring, the engine and the device.
            leavesThreadsRunning = true
            return
        }
        self.runtime = nil
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var slice = self
        while slice.first == set { slice = slice.dropFirst() }
        while slice.last == set { slice = slice.dropLast() }
        return String(slice)
    }
}
