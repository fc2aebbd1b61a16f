import Configuration
public import Logging
import Synchronization
import System
import UtterEngine
import Voices

/// Speaks utterances with Utter's voices, to the audio device or into a sound file.
///
/// Utterances queue and play back to back, in order; each one's events arrive in its stream as
/// they are heard. Every method may be called from any thread or task. One `Speaker` may exist in
/// a process at a time (libespeak-ng keeps its state in globals).
///
/// ```swift
/// let speaker = try Speaker()
/// let text = "Hello world"
/// for await event in speaker.speak(Utterance(text: text)) {
///     if case .word(let range) = event { print(text[range]) }
/// }
/// ```
///
/// Its events and settings go through swift-log (label `utter`): bootstrap a handler to see them.
public final class Speaker: Sendable {
    /// Where a speaker's audio goes.
    public enum Output: Sendable {
        /// An ALSA device (nil: `default`, which on a desktop is its sound server). With
        /// `configuration`, ALSA configuration text, the name is looked up there instead of in the
        /// system's configuration (as utter.conf's `AudioConfigurationFile` does for the module).
        case device(String? = nil, configuration: String? = nil)
        /// A PulseAudio-protocol server (PulseAudio, or PipeWire's pipewire-pulse) through libpulse:
        /// `server` as libpulse names one (`unix:/path`), nil for the session's.
        case pulseAudio(server: String? = nil)
        /// PipeWire through libpipewire: `remote` a socket path or remote name, nil for the session's.
        case pipeWire(remote: String? = nil)
        /// A sound file, written as fast as the engine goes; `.wav`, `.flac`, `.ogg`, `.aiff`,
        /// `.au` or `.caf` by its name. Every utterance is appended.
        case file(path: String)
    }

    /// Every voice: espeak-ng's, and the clip and neural voices installed for the user or the system.
    public let voices: [VoiceDescription]
    private let factory: JobFactory
    private let inbox: Inbox
    private let thread: NamedThread

    /// A speaker for the session's sound (``Output/session``), opened now, so that a missing one
    /// is reported here.
    public convenience init() throws(SpeakerError) {
        try self.init(output: .session)
    }

    /// A speaker for `output`; a device is opened now, a file created now, so that a problem with
    /// either is reported here rather than by silence. What goes wrong on the way (a voice folder
    /// that cannot be read, a sound server that fails) is logged to `logger`.
    public init(output: Output, logger: Logger = Logger(label: "utter")) throws(SpeakerError) {
        let configuration = UtterConfiguration()
        let engine = try Self.engine()
        let all = try Self.voices(of: engine, configuration: configuration, logger: logger)
        let catalogue = VoiceCatalogue(voices: all, languageVoices: configuration.languageVoices)
        factory = JobFactory(configuration: configuration, catalogue: catalogue)
        voices = VoiceDescription.all(in: catalogue)

        let pipeline: SpeechPipeline
        do {
            // The program chose its voice: a message waits for that voice's model (a STOP ends the
            // wait), rather than being spoken by the fallback voice as a screen reader's is.
            pipeline = try SpeechPipeline(
                engine: engine, output: output.sound, configuration: configuration, logger: logger, opening: true,
                waitsForModels: true)
        } catch SoundOutput.Failure.unavailable(let reason) {
            throw .deviceUnavailable(device: output.name, reason: reason)
        } catch SoundOutput.Failure.fileNotWritable(let reason) {
            throw .fileNotWritable(path: output.name, reason: reason)
        } catch {
            throw .engineUnavailable("\(error)")
        }
        let inbox: Inbox
        do {
            inbox = try Inbox()
        } catch {
            throw .engineUnavailable("\(error)")
        }
        self.inbox = inbox
        let loop = SpeakerLoop(pipeline: pipeline, inbox: inbox)
        do {
            thread = try NamedThread(name: "utter-speaker") { loop.run() }
        } catch {
            throw .engineUnavailable("cannot start its thread (\(error))")
        }
    }

    deinit {
        inbox.send(.shutdown)
        thread.join(until: MonotonicClock.now + 2_000_000_000)
    }

    /// The voice with this name or identifier (case does not matter).
    public func voice(named name: String) throws(SpeakerError) -> VoiceDescription {
        guard let voice = factory.catalogue.voice(named: name) else { throw .unknownVoice(name) }
        return VoiceDescription(voice, in: factory.catalogue)
    }

    /// Queues `utterance` after those already queued; its events come in the stream returned, which
    /// ends with ``SpeechEvent/finished`` or ``SpeechEvent/cancelled``. A voice that is not
    /// installed is replaced by one for the language, as speech-dispatcher does.
    public func speak(_ utterance: Utterance) -> AsyncStream<SpeechEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SpeechEvent.self, bufferingPolicy: .unbounded)
        inbox.speaking.wrappingAdd(1, ordering: .relaxed)
        inbox.send(.speak(Request(utterance: utterance, factory: factory, continuation: continuation)))
        return stream
    }

    /// Pauses playback at `boundary`; ``resume()`` goes on from there, losing nothing.
    public func pause(at boundary: SpeechBoundary = .immediate) {
        inbox.send(.pause(boundary))
    }

    /// Goes on after ``pause(at:)``.
    public func resume() {
        inbox.send(.resume)
    }

    /// Stops the current utterance at `boundary` and cancels every queued one.
    public func stop(at boundary: SpeechBoundary = .immediate) {
        inbox.send(.stop(boundary))
    }

    /// Whether an utterance is queued or playing.
    public var isSpeaking: Bool { inbox.speaking.load(ordering: .relaxed) > 0 }

    /// Whether playback is paused.
    public var isPaused: Bool { inbox.paused.load(ordering: .relaxed) }
}

extension Speaker {
    /// Every installed voice, without opening any output. Like a speaker, this needs the engine:
    /// it fails while a speaker exists in the process (use its ``voices`` then).
    public static func installedVoices(logger: Logger = Logger(label: "utter")) throws(SpeakerError) -> [VoiceDescription] {
        let configuration = UtterConfiguration()
        let all = try voices(of: engine(), configuration: configuration, logger: logger)
        return VoiceDescription.all(in: VoiceCatalogue(voices: all, languageVoices: configuration.languageVoices))
    }

    /// The engine, loaded: there is one in a process at a time.
    fileprivate static func engine() throws(SpeakerError) -> VoiceEngine {
        do {
            return try VoiceEngine()
        } catch {
            throw .engineUnavailable("\(error)")
        }
    }

    /// Every voice: `engine`'s and the clip and neural voices in the voice folders.
    fileprivate static func voices(
        of engine: borrowing VoiceEngine, configuration: UtterConfiguration, logger: Logger
    ) throws(SpeakerError) -> [Voice] {
        let espeakVoices = engine.voices()
        let clipVoices = VoiceLibrary.clipVoices(configuration: configuration, espeakVoices: espeakVoices, logger: logger)
        let all =
            espeakVoices + clipVoices
            + NeuralVoiceLibrary.voices(configuration: configuration, taken: espeakVoices + clipVoices, logger: logger)
        guard !all.isEmpty else { throw .noVoices }
        return all
    }
}

extension Speaker.Output {
    /// What the session plays through, as the module's `AudioBackend auto` picks it: PipeWire
    /// when its socket is there, else a PulseAudio server when one answers, else ALSA's `default`.
    public static var session: Self {
        switch SoundSession.resolve(.auto, alsaAsked: false) {
        case .pipewire: .pipeWire()
        case .pulse: .pulseAudio()
        default: .device()
        }
    }

    /// Where the engine sends the speech.
    var sound: SoundOutput {
        switch self {
        case .device(let name, let alsaText): .alsa(ALSADevice(name: name ?? "default", configurationText: alsaText))
        case .pulseAudio(let server): .soundServer(.pulse, address: server)
        case .pipeWire(let remote): .soundServer(.pipewire, address: remote)
        case .file(let path): .file(path: path)
        }
    }

    /// What an error calls it: the device, server or file.
    var name: String {
        switch self {
        case .device(let name, _): name ?? "default"
        case .pulseAudio(let server): server ?? "the session's sound server"
        case .pipeWire(let remote): remote ?? "the session's PipeWire"
        case .file(let path): path
        }
    }
}
