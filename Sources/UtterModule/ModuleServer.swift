import AudioOutput
import CUtterShims
import Configuration
import Glibc
import Logging
import ModuleProtocol
import RegularFiles
import Speech
import Voices

/// The control thread: reads commands from speech-dispatcher, answers them, drives synthesis and
/// playback, and is the only writer of stdout.
public final class ModuleServer {
    private let configurationPath: String?
    private let logSink: LogSink
    private let logger: Logger
    private let inputFD: Int32
    private var output: OutputChannel
    private let wakeFD: Int32
    /// SIGTERM and SIGINT, read in the poll loop so a message in progress can end with 703.
    private let signalFD: Int32

    private var splitter = LineSplitter()
    private var reader = CommandReader()
    private var settings = SpeechSettings()
    private var machine = MessageStateMachine()
    private var configuration = UtterConfiguration()
    private var serverAudioDevice: String?
    private var runtime: Runtime?
    private var lastJob: UInt64 = 0
    private var isFinished = false

    // Playback of the current message.
    private var queue: [SynthesisEvent] = []
    private var queueHead = 0
    private var endPosition: UInt64?
    /// Every mark before this position has been reported by the synth thread.
    private var knownProgress: UInt64 = 0
    private var pauseLimit: UInt64?
    /// When the next pending event's sample will be heard (CLOCK_MONOTONIC ns), if the device is playing.
    private var eventDeadline: UInt64?
    /// When to close the idle audio device (CLOCK_MONOTONIC ns); nil while speaking or once closed.
    private var idleDeadline: UInt64?
    private var reportedUnderruns = 0
    private var reportedDeviceFailures = 0
    private var reportedStops = (faded: 0, cut: 0)

    private struct Runtime {
        var factory: JobFactory
        var audio: AudioOutput
        var synthesizer: Synthesizer
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
        self.wakeFD = CUtterShims_eventfd(1)
        precondition(wakeFD >= 0, "eventfd failed: \(errno)")
        // Blocked here, before any thread starts, so every thread inherits the mask and the
        // signals are only ever delivered through the signalfd.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        self.signalFD = CUtterShims_signalfd(&signals)
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
            var fds = [
                pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0),
            ]
            var timeout: Int64 = -1
            if let deadline = [eventDeadline, idleDeadline].compactMap({ $0 }).min() {
                let now = AudioOutput.monotonicNanoseconds()
                timeout = deadline > now ? Int64(deadline - now) : 0
            }
            let ready = CUtterShims_pollNanoseconds(&fds, signalFD >= 0 ? 3 : 2, timeout)
            if ready < 0 && errno != EINTR {
                logger.critical("poll failed (\(Errno(errno))); exiting")
                break
            }
            if fds[1].revents != 0 {
                var value: UInt64 = 0
                _ = read(wakeFD, &value, 8)
            }
            if signalFD >= 0 && fds[2].revents != 0 {
                var record = [UInt8](repeating: 0, count: Int(CUtterShims_signalfdRecordSize()))
                _ = record.withUnsafeMutableBytes { read(signalFD, $0.baseAddress, $0.count) }
                let number = record.withUnsafeBytes { $0.load(as: UInt32.self) }
                logger.notice("signal \(number) received: ending the message in progress and exiting")
                perform(machine.abandon())
                break
            }
            if fds[0].revents != 0 {
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
            reportAudioHealth()
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
        let audio = AudioOutput(configuration: audioConfiguration(sampleRate: engine.sampleRate), controlWakeFD: wakeFD)
        if let priorityProblem = audio.start() {
            logger.notice("\(priorityProblem)")
        }
        let synthesizer = Synthesizer(
            engine: engine, audio: audio, controlWakeFD: wakeFD, logger: logSink.logger(label: "utter.synth"))
        synthesizer.start()
        runtime = Runtime(
            factory: JobFactory(configuration: configuration, catalogue: catalogue, words: wordBook()), audio: audio,
            synthesizer: synthesizer, espeakVoices: espeakVoices, voiceSignature: voiceSignature)
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
            runtime.synthesizer.prepareAudio()
            armIdleTimer()
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
            runtime.synthesizer.cancel(through: current)
            runtime.audio.stop(job: current)
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
        idleDeadline = nil
        runtime.audio.limitPlayback(to: nil)
        send(.speaking)
        machine.accept(job.id)
        runtime.synthesizer.submit(job)
    }

    // MARK: - Playback events

    private func resetPlayback() {
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        endPosition = nil
        knownProgress = 0
        pauseLimit = nil
    }

    /// Moves events whose sample has been heard into the state machine.
    private func pumpPlayback() {
        eventDeadline = nil
        guard let runtime else { return }
        let events = runtime.synthesizer.takeEvents()
        guard let job = machine.currentMessage else { return }
        for event in events where event.job == job {
            switch event {
            case .progress(_, let position):
                knownProgress = max(knownProgress, position)
            case .end(_, let position):
                knownProgress = max(knownProgress, position)
                endPosition = position
                queue.append(event)
            case .audioStart, .mark:
                queue.append(event)
            }
        }
        if machine.isPausePending { limitPlaybackForPause() }
        while machine.currentMessage == job {
            // Where the device is now, between the render thread's readings: events go out when
            // their sample is heard, not at the next period boundary.
            let now = AudioOutput.monotonicNanoseconds()
            let played = runtime.audio.playedPosition(at: now)
            while queueHead < queue.count, isHeard(queue[queueHead], played: played) {
                let event = queue[queueHead]
                queueHead += 1
                logHeard(event, played: played, job: job)
                switch event {
                case .audioStart: perform(machine.audioStarted(job))
                case .mark(_, let name, _): perform(machine.markReached(name, in: job))
                case .end: perform(machine.audioFinished(job))
                case .progress: break
                }
                if machine.currentMessage != job { break }
            }
            if queueHead > 4096 && queueHead * 2 > queue.count {
                queue.removeFirst(queueHead)
                queueHead = 0
            }
            guard machine.currentMessage == job else { return }
            guard queueHead < queue.count else { return }
            let target = threshold(of: queue[queueHead])
            runtime.audio.notify(whenPlayedReaches: target)
            // A crossing between the read above and setting the threshold would be missed: look again.
            if runtime.audio.playedPosition >= target { continue }
            // The render thread's wake is the fallback (a device that is not running yet, or one that
            // stalls); the deadline is when the device clock says the sample will be heard.
            eventDeadline = runtime.audio.nanoseconds(untilPlayed: target, at: now).map { now + $0 }
            return
        }
    }

    /// Where each event sat and where the device was when it went out: how exact marks are, read off a log.
    private func logHeard(_ event: SynthesisEvent, played: UInt64, job: UInt64) {
        let what: String
        switch event {
        case .audioStart: what = "begin"
        case .mark(_, let name, _): what = "mark \(name.debugDescription)"
        case .end: what = "end"
        case .progress: return
        }
        let target = threshold(of: event)
        logger.debug(
            "message \(job): \(what) at sample \(event.position), reported with the device at \(played) (+\(played - target))"
        )
    }

    private func threshold(of event: SynthesisEvent) -> UInt64 {
        // BEGIN waits for the first sample to be heard; a mark, for every sample before it.
        let own: UInt64
        if case .audioStart(_, let position) = event { own = position + 1 } else { own = event.position }
        if let endPosition { return min(own, endPosition) }
        return own
    }

    private func isHeard(_ event: SynthesisEvent, played: UInt64) -> Bool {
        played >= threshold(of: event)
    }

    /// Keeps playback from running past the next `__spd_` mark while a PAUSE is pending.
    ///
    /// Until that mark is known, playback may not run past the point up to which the synth thread
    /// has reported its marks, so the pause lands exactly on the mark and nothing after it is heard.
    private func limitPlaybackForPause() {
        guard let runtime else { return }
        var limit = endPosition ?? knownProgress
        for index in queueHead..<queue.count {
            if case .mark(_, let name, let position) = queue[index], name.hasPrefix("__spd_") {
                limit = position
                break
            }
        }
        guard limit != pauseLimit else { return }
        pauseLimit = limit
        runtime.audio.limitPlayback(to: limit)
    }

    private func perform(_ actions: [MessageStateMachine.Action]) {
        for action in actions {
            switch action {
            case .send(let event):
                output.send(event.encoded)
                if event.isTerminal {
                    resetPlayback()
                    armIdleTimer()
                }
            case .haltPlayback(let reason):
                guard let runtime, let job = machine.currentMessage else { continue }
                runtime.synthesizer.cancel(through: job)
                runtime.audio.stop(job: job)
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

    /// Starts counting the idle time after which the audio device is closed.
    private func armIdleTimer() {
        guard configuration.audioIdleSeconds > 0 else { return }
        idleDeadline = AudioOutput.monotonicNanoseconds() + UInt64(configuration.audioIdleSeconds) * 1_000_000_000
    }

    /// Closes the audio device once the module has been idle long enough (see `AudioIdleSeconds`).
    private func releaseIdleDevice() {
        guard let deadline = idleDeadline, machine.currentMessage == nil, let runtime else { return }
        guard AudioOutput.monotonicNanoseconds() >= deadline else { return }
        idleDeadline = nil
        runtime.synthesizer.releaseAudio()
    }

    private func reportAudioHealth() {
        guard let runtime else { return }
        let underruns = runtime.audio.underrunCount
        if underruns != reportedUnderruns {
            logger.notice("audio underruns: \(underruns) so far (\(underruns - reportedUnderruns) new)")
            reportedUnderruns = underruns
        }
        let stops = runtime.audio.stopCounts
        if stops.faded != reportedStops.faded {
            logger.debug("stop faded out over 4 ms")
        }
        if stops.cut != reportedStops.cut {
            logger.debug(
                "stop cut the sound at once: the device cannot take back what it has queued"
            )
        }
        reportedStops = stops
        let failures = runtime.audio.deviceFailureCount
        if failures != reportedDeviceFailures {
            logger.error(
                "audio device failed: \(runtime.audio.lastDeviceFailure.map { "\($0)" } ?? "unknown error"); the message is reported as played, the device is reopened for the next one"
            )
            reportedDeviceFailures = failures
        }
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
            runtime.synthesizer.cancel(through: job)
            runtime.audio.stop(job: job)
        }
        let deadline = AudioOutput.monotonicNanoseconds() + Self.shutdownWait
        let synthStopped = runtime.synthesizer.shutdown(until: deadline)
        // The render thread can stop by itself even if the synth thread is stuck opening a device.
        let renderStopped = runtime.audio.shutdown(until: deadline)
        if !synthStopped || !renderStopped {
            let stuck = synthStopped ? "render thread" : renderStopped ? "synth thread" : "synth and render threads"
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
