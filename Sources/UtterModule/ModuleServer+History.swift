// The speech history: what was said, kept for `utter history`, and spoken again on request.
import Configuration
import History
import Logging
import ModuleProtocol
import SSML
import System
import UtterEngine
import Voices

// A replay is the module's own message, which speech-dispatcher knows nothing of. It owns the
// module's output, so the rules are: a message of the server's that is speaking is stopped as a STOP
// would stop it (it gets its 703, and the server sees a normal end); the replay then speaks with no
// event sent to the server; and anything the server sends while it speaks wins: SPEAK, CHAR, KEY or
// SOUND_ICON halt it before they start, STOP and PAUSE silence it.
extension ModuleServer {
    /// A message as kept: what `utter history` lists, and what the server sent, which makes the
    /// same job again. Not the job itself: it is many times larger, and 50 of them held while
    /// thousands of messages pass through fragment the heap (RSS grew 1-2 MB more over 10,000).
    ///
    /// The entry's text of a SPEAK is its SSML's text content, made when the history is asked for:
    /// a message is accepted without reading its text through (a megabyte took 20 ms).
    struct SpokenMessage {
        var kind: MessageKind
        var data: String
        var settings: SpeechSettings
        /// The entry, its text empty for a SPEAK.
        var stored: HistoryEntry

        var entry: HistoryEntry {
            guard kind == .speak else { return stored }
            var entry = stored
            entry.text = SSMLReader.textContent(of: data)
            return entry
        }
    }

    /// Starts keeping `HistorySize` messages and opens the socket they are asked for on; says once
    /// in the log when there is no history, and why.
    func openHistory() {
        guard configuration.historySize > 0 else {
            logger.notice("HistorySize 0: no speech history is kept and no history socket is opened")
            return
        }
        guard let runtimeFolder = Environment.value("XDG_RUNTIME_DIR"), !runtimeFolder.isEmpty else {
            logger.notice("no speech history: XDG_RUNTIME_DIR is not set, so there is no private folder for its socket")
            return
        }
        guard let channel = HistoryChannel.open(runtimeFolder: runtimeFolder, logger: logger) else { return }
        historyChannel = channel
        history = SpeechHistory(capacity: configuration.historySize)
    }

    /// Closes the history socket (removing it) and forgets what was said.
    func closeHistory() {
        historyChannel = nil
        history = SpeechHistory(capacity: 0)
    }

    /// Keeps message `text`, spoken with `settings` by `voice`, as the listener hears it.
    func record(
        _ kind: MessageKind, text: String, settings: SpeechSettings, voice: Voice, language: LanguageTag
    ) {
        guard history.capacity > 0 else { return }
        let heard = kind == .speak ? "" : text
        let entryKind: HistoryEntry.Kind =
            switch kind {
            case .speak: .speak
            case .character: .character
            case .key: .key
            case .soundIcon: .soundIcon
            }
        let entry = HistoryEntry(
            text: heard, kind: entryKind, voice: voice.name, language: language.description,
            time: WallClock.millisecondsSince1970)
        history.append(SpokenMessage(kind: kind, data: text, settings: settings, stored: entry))
    }

    /// The answer to one request from `utter history`.
    func answerHistory(_ request: HistoryRequest) -> HistoryReply {
        switch request {
        case .list:
            return .entries(history.newestFirst.map(\.entry))
        case .replay(let number):
            guard let message = history[newest: number] else {
                logger.info("history: no message \(number) to replay (\(history.count) kept)")
                return .refused(
                    history.isEmpty
                        ? "Nothing has been said yet."
                        : "There is no message \(number): the history holds 1 to \(history.count).")
            }
            guard replay(message) else { return .refused("The module has no voice to speak it with now.") }
            return .entries([message.entry])
        }
    }

    /// Speaks `message` again at once, as a new message would start: see the rules above.
    private func replay(_ message: SpokenMessage) -> Bool {
        guard let runtime,
            let (job, _, _) = runtime.factory.message(
                id: lastJob + 1, kind: message.kind, text: message.data, settings: message.settings)
        else { return false }
        if machine.currentMessage != nil {
            perform(machine.stop())
        }
        haltReplay()
        lastJob += 1
        resetPlayback()
        runtime.speech.limitPlayback(to: nil)
        runtime.speech.submit(job)
        replayJob = job.id
        logger.info(
            "replaying a message from the history",
            metadata: ["message": "\(job.id)", "bytes": "\(message.data.utf8.count)"])
        return true
    }

    /// Silences the replay, if one is speaking.
    func haltReplay() {
        guard let job = replayJob else { return }
        runtime?.speech.halt(through: job)
        replayJob = nil
        logger.debug("replay halted", metadata: ["message": "\(job)"])
    }

    /// Takes a playback event of the replay: its end lets the device idle again.
    func replayEvent(_ event: MessageEvent) {
        guard case .finished = event, event.job == replayJob, let speech = runtime?.speech else { return }
        speech.finish(through: event.job)
        replayJob = nil
        speech.armIdleTimer()
    }
}
