// The commands speech-dispatcher sends, and the playback events they lead to.
import Configuration
import Logging
import ModuleProtocol
import RegularFiles
import System
import UtterEngine
import Voices

extension ModuleServer {
    func handle(_ line: LineSplitter.Line) {
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

    func handle(_ command: Command) {
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
            if let name = settings.synthesisVoice, runtime?.factory.catalogue.voice(named: name) == nil {
                refreshVoicesIfChanged()  // perhaps a voice installed since
            }
            prepareChosenVoice()
        case .message(let kind, let data):
            speak(kind, data)
        case .stop:
            haltReplay()
            perform(machine.stop())
        case .pause:
            haltReplay()
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

    func listVoices(language: String?, variant: String?) {
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
            logger.info(
                "LIST VOICES: no voice matches",
                metadata: ["language": "\(language ?? "")", "variant": "\(variant ?? "")"])
            send(.cannotListVoices)
            return
        }
        send(.voiceList(listings.map { VoiceListEntry(name: $0.name, language: $0.language.description) }))
    }

    func speak(_ kind: MessageKind, _ data: MessageData) {
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
        if runtime == nil { initialize(replying: false) }
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
            runtime.speech.halt(through: current)
            machine = MessageStateMachine()
        }
        lastJob += 1
        guard
            let (job, voice, reason) = runtime.factory.message(
                id: lastJob, kind: kind, text: data.text, settings: settings)
        else {
            logger.error("no voice to speak with")
            send(.cannotSpeak)
            return
        }
        if kind == .soundIcon && job.soundFiles.isEmpty {
            logger.warning("sound icon \(data.text.debugDescription) is not a file name; nothing is played")
        }
        logger.debug(
            "message accepted",
            metadata: [
                "message": "\(job.id)", "kind": "\(kind.rawValue)", "bytes": "\(data.text.utf8.count)",
                "voice": "\(voice.name.debugDescription)", "chosen": "\(reason)",
            ])
        // The server's message wins over a replay, which it knows nothing of.
        haltReplay()
        record(
            kind, text: data.text, settings: settings, voice: voice,
            language: runtime.factory.messageLanguage(voice: voice, settings: settings))
        resetPlayback()
        // Held until the rest of this read is handled: a PAUSE (or STOP) that came with the message
        // must be in force before its first sample can be heard (see `releaseInputHold`).
        runtime.speech.holdPlayback()
        holdsPlaybackForInput = true
        send(.speaking)
        machine.accept(job.id)
        runtime.speech.submit(job)
    }

    /// Lifts the hold `speak` put on a new message once every line of the same read is handled,
    /// unless a PAUSE that came with it now sets the limit.
    func releaseInputHold() {
        guard holdsPlaybackForInput else { return }
        holdsPlaybackForInput = false
        guard pauseLimit == nil, !machine.isPausePending else { return }
        runtime?.speech.limitPlayback(to: nil)
    }

    // MARK: Playback events

    /// Forgets the events of every message so far (the last one ended).
    func resetPlayback() {
        runtime?.speech.finish(through: lastJob)
        pauseLimit = nil
    }

    /// Hands the state machine every event whose sample has been heard.
    func pumpPlayback() {
        guard let speech = runtime?.speech else { return }
        speech.pumpMessages(afterReceiving: { if machine.isPausePending { limitPlaybackForPause() } }) { event in
            let job = event.job
            guard machine.currentMessage == job else {
                replayEvent(event)
                return
            }
            switch event {
            case .started: perform(machine.audioStarted(job))
            case .mark(_, let name): perform(machine.markReached(name, in: job))
            case .finished: perform(machine.audioFinished(job))
            }
        }
    }

    /// Keeps playback from running past the next `__spd_` mark while a PAUSE is pending.
    ///
    /// Until that mark is known, playback may not run past the point up to which the synth thread
    /// has reported its marks, so the pause lands exactly on the mark and nothing after it is heard.
    func limitPlaybackForPause() {
        guard let speech = runtime?.speech else { return }
        let limit = speech.pauseLimit { event in
            if case .mark(_, let name) = event { return name.hasPrefix("__spd_") }
            return false
        }
        guard limit != pauseLimit else { return }
        pauseLimit = limit
        speech.limitPlayback(to: limit)
    }

    func perform(_ actions: [MessageStateMachine.Action]) {
        for action in actions {
            switch action {
            case .send(let event):
                output.send(event.encoded)
                if event.isTerminal {
                    resetPlayback()
                    runtime?.speech.armIdleTimer()
                }
            case .haltPlayback(let reason):
                guard let runtime, let job = machine.currentMessage else { continue }
                runtime.speech.halt(through: job)
                logger.debug("message halted", metadata: ["message": "\(job)", "reason": "\(reason)"])
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
    func releaseIdleDevice() {
        guard machine.currentMessage == nil, replayJob == nil else { return }
        runtime?.speech.releaseIdleDevice()
    }
}
