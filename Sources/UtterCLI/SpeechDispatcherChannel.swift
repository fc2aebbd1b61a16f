import JapaneseReading
import RealModule
import SSML
import SpeechDispatcherClient
import UtterKit

/// Speech through the user's speech-dispatcher, over libspeechd. Words are followed by an SSML
/// `<mark>` before each one, which the server reports when the module reaches it; the prosody
/// goes over as SSIP settings, the delays as `<break>`s so that the server's queue keeps the order.
final class SpeechDispatcherChannel: SpeechChannel {
    private let connection: SpeechDispatcherConnection
    private let module: String?

    /// Connects to the user's speech-dispatcher, starting it if none runs, as clients do.
    init(module: String?) throws(SpeechDispatcherError) {
        connection = try SpeechDispatcherConnection(clientName: "utter", startingServer: true)
        self.module = module
    }

    func speak(_ utterance: Utterance) -> AsyncStream<SpeechEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SpeechEvent.self, bufferingPolicy: .unbounded)
        let message = Self.message(for: utterance, reader: reader(for: utterance.text))
        guard let events = connection.say(ssml: message.ssml, settings: settings(for: utterance)) else {
            continuation.yield(.cancelled)
            continuation.finish()
            return stream
        }
        let words = message.words
        Task {
            for await event in events {
                switch event {
                case .began: continuation.yield(.started)
                case .mark(let name):
                    if let index = Self.wordIndex(name), words.indices.contains(index) {
                        continuation.yield(.word(words[index]))
                    } else {
                        continuation.yield(.mark(name))
                    }
                case .paused: continuation.yield(.paused)
                case .resumed: continuation.yield(.resumed)
                case .ended: continuation.yield(.finished)
                case .cancelled: continuation.yield(.cancelled)
                }
            }
            continuation.finish()
        }
        return stream
    }

    /// What cuts Japanese text into its words for the marks: MeCab, opened for the message (a few
    /// milliseconds); nil without a dictionary, and then its runs between punctuation are its words.
    private func reader(for text: String) -> JapaneseReader? {
        guard text.unicodeScalars.contains(where: { Script.of($0) == .kana || Script.of($0) == .han }) else {
            return nil
        }
        return try? JapaneseReader()
    }

    /// The server pauses at its next index mark, which is the next word.
    func pause(at boundary: SpeechBoundary) { connection.pause() }

    func resume() { connection.resume() }

    /// SSIP has one way to stop: at once, dropping what is queued.
    func stop(at boundary: SpeechBoundary) { connection.cancel() }

    private func settings(for utterance: Utterance) -> SpeechDispatcherSettings {
        var settings = SpeechDispatcherSettings()
        settings.module = module
        settings.language = utterance.language
        settings.voice = utterance.voice
        settings.rate = Self.ssip((utterance.rate - 0.5) * 200)
        settings.pitch = Self.ssip(Double.log2(max(utterance.pitch, 0.01)) * 100)
        settings.volume = Self.ssip(utterance.volume * 200 - 100)
        return settings
    }

    private static func ssip(_ value: Double) -> Int {
        Int(min(100, max(-100, value.rounded())))
    }

    private static let wordMarkPrefix = "utter-word-"

    private static func wordIndex(_ mark: String) -> Int? {
        guard mark.hasPrefix(wordMarkPrefix) else { return nil }
        return Int(mark.dropFirst(wordMarkPrefix.count))
    }

    /// The SSML sent for `utterance` and the ranges of the words its marks stand before. An SSML
    /// utterance goes as written, its own marks reported as marks.
    static func message(for utterance: Utterance, reader: (any TextReading)? = nil) -> (
        ssml: String, words: [Range<String.Index>]
    ) {
        func pause(_ seconds: Double) -> String {
            seconds > 0 ? "<break time=\"\(Int((seconds * 1000).rounded()))ms\"/>" : ""
        }
        let before = pause(utterance.preDelay)
        let after = pause(utterance.postDelay)
        if let ssml = utterance.ssml {
            guard let open = ssml.firstRange(of: "<speak"), let openEnd = ssml[open.upperBound...].firstIndex(of: ">"),
                let close = ssml.ranges(of: "</speak>").last
            else { return (ssml, []) }
            let body = ssml.index(after: openEnd)
            return (String(ssml[..<body]) + before + String(ssml[body..<close.lowerBound]) + after
                + String(ssml[close.lowerBound...]), [])
        }
        let text = utterance.text
        let words = SpokenWords.ranges(in: text, reader: reader)
        var ssml = "<speak>" + before
        var written = text.startIndex
        for (index, word) in words.enumerated() {
            ssml += SSMLText.escape(String(text[written..<word.lowerBound]))
            ssml += "<mark name=\"\(wordMarkPrefix)\(index)\"/>" + SSMLText.escape(String(text[word]))
            written = word.upperBound
        }
        ssml += SSMLText.escape(String(text[written...])) + after + "</speak>"
        return (ssml, words)
    }
}

/// Where words are in a text, for following it: the text's words as Utter's own engine reports
/// them (``SSML/TextWords``), runs of Chinese and Japanese whole or, with a reader, in its words.
enum SpokenWords {
    /// With a `reader`, Japanese runs are cut into the reader's words (MeCab's morphemes), which
    /// are the words Utter's own engine reports for them.
    static func ranges(in text: String, reader: (any TextReading)? = nil) -> [Range<String.Index>] {
        var reader = reader
        let indices = Array(text.unicodeScalars.indices) + [text.endIndex]
        return TextWords.units(of: text).flatMap { unit -> [Range<String.Index>] in
            let run = indices[unit.range.lowerBound]..<indices[unit.range.upperBound]
            if unit.isUnspaced, reader != nil,
                text[run].unicodeScalars.contains(where: { Script.of($0) == .kana || Script.of($0) == .han })
            {
                let words = japaneseWords(in: text, run: run, reader: &reader!)
                return words.isEmpty ? [run] : words
            }
            return [run]
        }
    }

    /// The reader's words in `run`, those with a letter or digit, as ranges of `text`.
    private static func japaneseWords(
        in text: String, run: Range<String.Index>, reader: inout any TextReading
    ) -> [Range<String.Index>] {
        let scalars = text.unicodeScalars
        let indices = Array(scalars[run].indices) + [run.upperBound]
        return reader.words(of: String(text[run]), language: "ja").compactMap { word in
            guard word.source.upperBound < indices.count else { return nil }
            let range = indices[word.source.lowerBound]..<indices[word.source.upperBound]
            let piece = text[range]
            guard piece.contains(where: { $0.isLetter || $0.isNumber }),
                range.lowerBound == piece.startIndex, range.upperBound == piece.endIndex
            else { return nil }
            return range
        }
    }
}
