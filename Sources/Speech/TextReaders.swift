import ChineseReading
import JapaneseReading
import Logging
import SSML

/// The readers of the languages a voice cannot read as written, each opened the first time its
/// language is spoken (or when asked to be ready), on the synth thread that uses it.
///
/// A class: the segmenter is handed it for each message, and what was opened stays open for the next.
final class TextReaders: TextReading {
    /// A reader that could not be opened is asked for no more; its languages are read as written.
    private enum State {
        case closed(open: () throws -> any TextReading)
        case open(any TextReading)
        case unavailable
    }

    /// One state per reader; a reader of several languages (zh and cmn) is opened once.
    private var readers: [State]
    private let readerIndex: [String: Int]
    private var problems: [String] = []
    let logger: Logger

    let languages: Set<String>

    /// Japanese by MeCab (kanji as kana, morphemes as words), with the dictionary in
    /// `japaneseDictionary` (nil: the first known one installed); Mandarin by ICU (Han as pinyin
    /// words for espeak-ng's pinyin voice).
    convenience init(logger: Logger, japaneseDictionary: String?) {
        self.init(
            logger: logger,
            openers: [
                (["ja"], { try JapaneseReader(dictionary: japaneseDictionary.map { JapaneseDictionary(path: $0) }) }),
                (["zh", "cmn"], { try ChineseReading() }),
            ])
    }

    init(logger: Logger, openers: [(languages: Set<String>, open: () throws -> any TextReading)]) {
        self.logger = logger
        self.readers = openers.map { State.closed(open: $0.open) }
        var index: [String: Int] = [:]
        for (position, opener) in openers.enumerated() {
            for language in opener.languages { index[language] = position }
        }
        self.readerIndex = index
        self.languages = Set(index.keys)
    }

    func words(of text: String, language: String) -> [ReadingWord] {
        guard let index = readerIndex[language], var reader = open(index) else { return [] }
        let words = reader.words(of: text, language: language)
        readers[index] = .open(reader)
        return words
    }

    /// Opens the reader of `language` now, if there is one, so that its first message does not wait.
    func prepare(_ language: String) {
        if let index = readerIndex[language] { _ = open(index) }
        logProblems()
    }

    private func open(_ index: Int) -> (any TextReading)? {
        switch readers[index] {
        case .open(let reader):
            return reader
        case .closed(let open):
            do {
                let reader = try open()
                readers[index] = .open(reader)
                return reader
            } catch {
                readers[index] = .unavailable
                problems.append("\(error)")
                return nil
            }
        case .unavailable:
            return nil
        }
    }

    /// Logs once why a reader could not be opened (its languages are then read as written).
    func logProblems() {
        for problem in problems { logger.warning("\(problem)") }
        problems.removeAll()
    }
}
