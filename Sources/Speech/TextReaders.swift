import JapaneseReading
import Logging
import SSML

/// The readers of the languages a voice cannot read as written, each opened the first time its
/// language is spoken, on the synth thread that uses it.
///
/// A class: the segmenter is handed it for each message, and what was opened stays open for the next.
final class TextReaders: TextReading {
    /// A reader that could not be opened is asked for no more; its language is read as written.
    private enum State {
        case closed(open: () throws -> any TextReading)
        case open(any TextReading)
        case unavailable
    }

    private var readers: [String: State]
    private var problems: [String] = []
    let logger: Logger

    let languages: Set<String>

    /// Japanese by MeCab (kanji as kana, morphemes as words), with the dictionary in
    /// `japaneseDictionary` (nil: the first known one installed).
    convenience init(logger: Logger, japaneseDictionary: String?) {
        self.init(
            logger: logger,
            openers: ["ja": { try JapaneseReader(dictionary: japaneseDictionary.map { JapaneseDictionary(path: $0) }) }])
    }

    init(logger: Logger, openers: [String: () throws -> any TextReading]) {
        self.logger = logger
        self.readers = openers.mapValues { State.closed(open: $0) }
        self.languages = Set(openers.keys)
    }

    func words(of text: String, language: String) -> [ReadingWord] {
        switch readers[language] {
        case .open(var reader)?:
            let words = reader.words(of: text, language: language)
            readers[language] = .open(reader)
            return words
        case .closed(let open)?:
            do {
                readers[language] = .open(try open())
            } catch {
                readers[language] = .unavailable
                problems.append("\(error)")
                return []
            }
            return words(of: text, language: language)
        case .unavailable?, nil:
            return []
        }
    }

    /// Logs once why a reader could not be opened (its language is then read as written).
    func logProblems() {
        for problem in problems { logger.warning("\(problem)") }
        problems.removeAll()
    }
}
