import Configuration
import History
import Logging
import ModuleProtocol
import RegularFiles
import System
import UtterEngine
import Voices

/// The control thread: reads commands from speech-dispatcher, answers them, drives synthesis and
/// playback, and is the only writer of stdout.
///
/// It reaches speech and sound through UtterEngine alone (a ``SpeechPipeline``). BEGIN is sent
/// when a message's first sample is heard, each mark when its sample is heard (the poll loop
/// sleeps until the device clock says so), END when the last one has played. PAUSE plays on to
/// the next `__spd_` mark and stops exactly there, then sends `704`; resume loses nothing. The
/// history socket (``HistoryChannel``) is served on the same poll loop, non-blocking.
public final class ModuleServer {
    let configurationPath: String?
    let logSink: LogSink
    let logger: Logger
    let inputFD: Int32
    var output: OutputChannel
    /// SIGTERM and SIGINT, read in the poll loop so a message in progress can end with 703.
    let signals: SignalFD?

    var splitter = LineSplitter()
    var reader = CommandReader()
    var settings = SpeechSettings()
    var machine = MessageStateMachine()
    var configuration = UtterConfiguration()
    var serverAudioDevice: String?
    var runtime: Runtime?
    var lastJob: UInt64 = 0
    var isFinished = false

    /// Where playback of the current message is held while a PAUSE waits for its mark.
    var pauseLimit: UInt64?
    /// Whether a message accepted in the read being handled holds playback (see `releaseInputHold`).
    var holdsPlaybackForInput = false

    /// The last messages spoken (none until INIT opens the history socket).
    var history = SpeechHistory<SpokenMessage>(capacity: 0)
    var historyChannel: HistoryChannel?
    /// The history message being spoken again, which speech-dispatcher knows nothing of.
    var replayJob: UInt64?

    struct Runtime {
        var factory: JobFactory
        /// The engine, playing on `route` (AUDIO blocks change the ALSA device, or the route).
        var speech: SpeechPipeline
        var route: SoundSession.Route
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
        self.signals = SignalFD(blocking: SignalFD.termination)
    }

    /// How long exiting waits for the synth and render threads.
    static let shutdownWait: UInt64 = 500_000_000

    /// Whether `run` returned with a thread still blocked in a device or engine call: the process
    /// must then end with `_exit`, since running exit handlers under that thread is unsafe.
    public private(set) var leavesThreadsRunning = false

    /// Serves until QUIT, stdin EOF or a closed stdout; returns the process exit status.
    public func run() -> Int32 {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while !isFinished && output.isOpen {
            let wake = runtime?.speech.wake
            let historyRequests = historyChannel?.pollRequests ?? []
            let descriptors =
                [inputFD, signals?.rawValue ?? -1, wake?.rawValue ?? -1].map { PollRequest($0) } + historyRequests
            let timeout = runtime?.speech.deadline.map { deadline in
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
                let result = buffer.withUnsafeMutableBytes { BorrowedDescriptor(inputFD).read(into: $0) }
                let count: Int
                switch result {
                case .success(let read): count = read
                case .failure(let error): count = error.isTransient ? -1 : 0
                }
                if count == 0 {
                    logger.info("stdin closed: speech-dispatcher is gone; exiting")
                    _ = machine.abandon()
                    break
                }
                if count > 0 {
                    // A message's text is taken in as it arrives, a line of megabytes too: the
                    // closing dot finds it decoded, and the reply to it does not wait on its length.
                    splitter.append(buffer[0..<count], handsOverPartialLines: { self.reader.takesPartialLines }) { line in
                        if line.isTruncated {
                            logger.error("a protocol line over \(splitter.maximumLineLength) bytes was cut")
                        }
                        handle(line)
                    }
                    releaseInputHold()
                }
            }
            if !historyRequests.isEmpty, let channel = historyChannel,
                !channel.serve(ready: ready[3...], answer: { answerHistory($0) })
            {
                closeHistory()
            }
            pumpPlayback()
            runtime?.speech.reportHealth()
            releaseIdleDevice()
        }
        if !output.isOpen {
            logger.notice("stdout closed by speech-dispatcher; exiting")
        }
        shutdown()
        return 0
    }

    func send(_ reply: Reply) {
        output.send(reply.encoded)
    }

    /// Stops the synth and render threads, waiting for them at most `shutdownWait`: the server
    /// kills a module that has not exited about a second after QUIT, and a sound server that
    /// hangs can hold either thread in a device call for good.
    private func shutdown() {
        closeHistory()
        guard let runtime else { return }
        if let job = [machine.currentMessage, replayJob].compactMap({ $0 }).max() {
            runtime.speech.halt(through: job)
        }
        if let stuck = runtime.speech.shutdown(until: MonotonicClock.now + Self.shutdownWait) {
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


