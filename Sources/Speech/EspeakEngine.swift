import CEspeakNG
import RealModule  // log2, for pitch steps (the layering keeps raw C calls in System)
import Playback
import Synchronization
public import Voices

/// Something libespeak-ng refused, with what to try.
public struct SpeechEngineError: Error, CustomStringConvertible {
    public let operation: String
    public let code: Int32

    public var description: String {
        guard code != 0 else { return "espeak-ng could not \(operation): libespeak-ng allows one per process." }
        var buffer = [CChar](repeating: 0, count: 512)
        espeak_ng_GetStatusCodeMessage(espeak_ng_STATUS(UInt32(bitPattern: code)), &buffer, buffer.count)
        let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "espeak-ng could not \(operation): \(message) (is the espeak-ng-data package installed?)"
    }
}

/// Prosody and reading settings for one synthesis call, in espeak-ng's units.
public struct EngineParameters: Equatable, Sendable {
    public var wordsPerMinute = 175
    /// 0…100, 50 = the voice's normal pitch.
    public var pitch = 50
    /// 0…100, 50 = normal intonation range.
    public var pitchRange = 50
    public var punctuation = Punctuation.none
    public var capitals = Capitals.none

    public enum Punctuation: Equatable, Sendable {
        case none
        case all
        case some(String)
    }

    public enum Capitals: Equatable, Sendable {
        case none, spell
        /// Words that start with a capital are spoken higher by this many pitch steps.
        case pitch(steps: Int)
    }

    public init() {}

    /// libespeak-ng's pitch steps (its 0…100 pitch scale, as in `<prosody pitch="+N">` and the
    /// capitals option) that raise the heard pitch by `percent`. A step scales the voice's base
    /// pitch by 2^(1/50), but the intonation around it stays, so the heard F0 rises less: 59
    /// steps an octave, measured on en-us, de, ru and en+f2 (F0 by autocorrelation, 20 steps
    /// gave +25…+29%). At least 4: the capitals option reads 1…3 as other settings.
    public static func pitchSteps(risingBy percent: Int) -> Int {
        guard percent > 0 else { return 0 }
        let octaves = Double.log2(1 + Double(percent) / 100)
        return max(4, Int((octaves * 59).rounded()))
    }
}

/// libespeak-ng in synchronous mode. Not thread-safe, like the library: after `init` it is used
/// by one thread only (the synth thread).
public final class EspeakEngine {
    /// Receives each chunk of audio and the marks (and words) inside it; returns false to abort the call.
    typealias Sink = (UnsafeBufferPointer<Int16>, [EngineEvent]) -> Bool

    public let sampleRate: Int
    private var sink: Sink?
    private var reportsWords = false
    private var currentVoice = ""
    private var currentParameters: EngineParameters?

    /// libespeak-ng keeps all its state in globals: one engine per process at a time.
    private static let isInUse = Atomic<Bool>(false)

    /// Loads espeak-ng's data from `dataPath` (nil: the library's default location).
    public init(dataPath: String? = nil, chunkMilliseconds: Int32 = 20) throws(SpeechEngineError) {
        guard Self.isInUse.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            throw SpeechEngineError(operation: "start a second engine in one process", code: 0)
        }
        espeak_ng_InitializePath(dataPath)
        var status = espeak_ng_Initialize(nil)
        if status == ENS_OK {
            status = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, chunkMilliseconds, nil)
        }
        guard status == ENS_OK else {
            Self.isInUse.store(false, ordering: .releasing)
            throw SpeechEngineError(operation: "load its data", code: Int32(bitPattern: status.rawValue))
        }
        sampleRate = Int(espeak_ng_GetSampleRate())
        espeak_SetSynthCallback(engineCallback)
    }

    /// Has libespeak-ng hand over its audio in chunks of `milliseconds` (1.51 makes it at least
    /// 60; a call's last chunk is shorter): larger chunks for a file, where nobody waits for the
    /// first and every chunk costs a write. Before the synth thread starts.
    public func useChunks(ofMilliseconds milliseconds: Int32) throws(SpeechEngineError) {
        let status = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, milliseconds, nil)
        guard status == ENS_OK else {
            throw SpeechEngineError(operation: "resize its output buffer", code: Int32(bitPattern: status.rawValue))
        }
    }

    deinit {
        // No espeak_ng_Terminate: in 1.51 it can wait forever for the library's queue thread (seen
        // here after a second espeak_ng_Initialize). Initialising again later works; the process's
        // exit frees the rest.
        Self.isInUse.store(false, ordering: .releasing)
    }

    /// Every espeak-ng voice (variants excluded), with its languages in espeak-ng's priority order.
    public func voices() -> [Voice] {
        guard let list = espeak_ListVoices(nil) else { return [] }
        var voices: [Voice] = []
        var index = 0
        while let pointer = list[index] {
            index += 1
            let entry = pointer.pointee
            guard let namePointer = entry.name, let identifierPointer = entry.identifier else { continue }
            let name = String(cString: namePointer)
            let identifier = String(cString: identifierPointer)
            var languages: [Voice.Language] = []
            if var cursor = entry.languages {
                // A sequence of (priority byte, NUL-terminated tag), ended by a zero priority.
                while cursor.pointee != 0 {
                    let priority = Int(UInt8(bitPattern: cursor.pointee))
                    let tagText = String(cString: cursor + 1)
                    if let tag = LanguageTag(tagText), !languages.contains(where: { $0.tag == tag }) {
                        languages.append(Voice.Language(tag: tag, priority: priority))
                    }
                    cursor += 2 + tagText.utf8.count
                }
            }
            guard let primary = languages.first else { continue }
            voices.append(
                Voice(
                    name: name, identifier: "espeak-ng:\(identifier)",
                    primaryLanguages: [primary], supportedLanguages: Array(languages.dropFirst()),
                    kind: .espeak(engineName: identifier)))
        }
        return EspeakVoiceQuirks.corrected(voices, version: version)
    }

    /// The library's version, such as `1.51`.
    public var version: String {
        var path: UnsafePointer<CChar>?
        guard let text = espeak_Info(&path) else { return "" }
        return String(cString: text)
    }

    /// Selects `engineName` with `variant` (`none` or nil: the voice's own sound).
    func setVoice(_ engineName: String, variant: String?) throws(SpeechEngineError) {
        let full = variant.map { $0 == "none" || $0.isEmpty ? engineName : "\(engineName)+\($0)" } ?? engineName
        guard full != currentVoice else { return }
        let status = espeak_SetVoiceByName(full)
        guard status == EE_OK else {
            throw SpeechEngineError(operation: "select voice \(full.debugDescription)", code: Int32(status.rawValue))
        }
        currentVoice = full
    }

    func apply(_ parameters: EngineParameters) {
        guard parameters != currentParameters else { return }
        espeak_SetParameter(espeakRATE, Int32(parameters.wordsPerMinute), 0)
        espeak_SetParameter(espeakPITCH, Int32(parameters.pitch), 0)
        espeak_SetParameter(espeakRANGE, Int32(parameters.pitchRange), 0)
        switch parameters.punctuation {
        case .none:
            espeak_SetParameter(espeakPUNCTUATION, Int32(espeakPUNCT_NONE.rawValue), 0)
        case .all:
            espeak_SetParameter(espeakPUNCTUATION, Int32(espeakPUNCT_ALL.rawValue), 0)
        case .some(let list):
            var wide = list.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
            wide.append(0)
            espeak_SetPunctuationList(wide)
            espeak_SetParameter(espeakPUNCTUATION, Int32(espeakPUNCT_SOME.rawValue), 0)
        }
        let capitals: Int32 =
            switch parameters.capitals {
            case .none: 0
            case .spell: 2
            case .pitch(let steps): Int32(max(4, steps))
            }
        espeak_SetParameter(espeakCAPITALS, capitals, 0)
        currentParameters = parameters
    }

    /// Synthesises one SSML document, handing audio and marks (and with `reportsWords`, words) to
    /// `sink` as they come.
    func synthesize(ssml: String, pauseAtEnd: Bool, reportsWords: Bool = false, sink: @escaping Sink) {
        self.sink = sink
        self.reportsWords = reportsWords
        defer { self.sink = nil }
        var flags = UInt32(espeakCHARS_UTF8) | UInt32(espeakSSML)
        if pauseAtEnd { flags |= UInt32(espeakENDPAUSE) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let text = Self.closedWithoutVoiceReload(ssml)
        text.withCString { pointer in
            _ = espeak_Synth(pointer, text.utf8.count + 1, 0, POS_CHARACTER, 0, flags, nil, context)
        }
    }

    /// `ssml` with a final `</speak>` (of a `<speak>` without attributes) written as `</s>`.
    ///
    /// libespeak-ng 1.51 starts every synthesis with no voice noted as current, so its `</speak>`
    /// always "changes" back to the base voice: it reads the voice file and the whole dictionary
    /// again at the end of every call (en_dict 167 KB, ru_dict 2 MB; 0.38 M instructions for
    /// English, 1 M for Russian), once per segment of a message. A stray `</s>` ends the text
    /// with the same sentence pause and leaves the voice alone: the samples and events are
    /// identical (compared byte for byte, with and without the end pause). A `<speak xml:lang>`
    /// keeps its `</speak>`: there it really restores the base voice.
    static func closedWithoutVoiceReload(_ ssml: String) -> String {
        guard ssml.hasPrefix("<speak>"), ssml.hasSuffix("</speak>") else { return ssml }
        var text = ssml
        text.removeLast("</speak>".count)
        text += "</s>"
        return text
    }

    fileprivate func deliver(_ samples: UnsafeBufferPointer<Int16>, _ events: UnsafeMutablePointer<espeak_EVENT>?)
        -> Bool
    {
        var reported: [EngineEvent] = []
        if var event = events {
            while event.pointee.type != espeakEVENT_LIST_TERMINATED {
                let sample = Int(event.pointee.sample)
                if event.pointee.type == espeakEVENT_MARK, let name = event.pointee.id.name {
                    reported.append(.mark(name: String(cString: name), sample: sample))
                } else if reportsWords && event.pointee.type == espeakEVENT_WORD {
                    reported.append(
                        .word(
                            textPosition: Int(event.pointee.text_position), length: Int(event.pointee.length),
                            sample: sample))
                }
                event += 1
            }
        }
        return sink?(samples, reported) ?? false
    }
}

/// espeak-ng's synthesis callback: finds the engine through the event's user data.
private func engineCallback(
    _ wave: UnsafeMutablePointer<Int16>?, _ count: Int32, _ events: UnsafeMutablePointer<espeak_EVENT>?
) -> Int32 {
    guard let events, let context = events.pointee.user_data else { return 0 }
    let engine = Unmanaged<EspeakEngine>.fromOpaque(context).takeUnretainedValue()
    let samples = UnsafeBufferPointer(start: wave, count: wave == nil ? 0 : Int(max(0, count)))
    return engine.deliver(samples, events) ? 0 : 1
}
