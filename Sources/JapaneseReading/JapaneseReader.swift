internal import CMeCab
internal import Glibc
public import JapaneseKana
public import SSML

/// Reads Japanese text into words with their kana, by MeCab with an IPA dictionary.
///
/// espeak-ng's Japanese voice reads kana only. MeCab, with the dictionary of
/// `mecab-ipadic-utf8`, cuts the text into morphemes, which are the words of this
/// ``SSML/TextReading``, and ``JapaneseKana/JapaneseWords`` gives each the kana the voice reads
/// correctly: the dictionary's pronunciation, numbers read whole with their counters (`10月1日`
/// ジューガツ ツイタチ), acronyms spelled as Japanese readers say them. Punctuation stays in the
/// text, where the voice pauses for it. Analysis takes about 1 ms per 1,000 characters
/// (`bench/render --japanese`).
///
/// MeCab's tagger and lattice keep per-call state: one reader is used by one thread at a time
/// (the synth thread), and is not `Sendable`. Each reader maps the dictionary (about 50 MB,
/// shared between readers and processes by the page cache).
public final class JapaneseReader: TextReading {
    public let dictionary: JapaneseDictionary
    public var languages: Set<String> { ["ja"] }

    private let mecab: MeCabLibrary
    private let model: OpaquePointer
    private let tagger: OpaquePointer
    private let lattice: OpaquePointer
    /// The thread that first analysed with it, which every later call must be on (checked in debug builds).
    private var thread: pthread_t? = nil

    /// Opens the dictionary, or the first known one installed when it is nil.
    /// The corresponding MeCab calls are `mecab_model_new`, `mecab_model_new_tagger` and `mecab_model_new_lattice`.
    public init(dictionary: JapaneseDictionary? = nil) throws(JapaneseReaderError) {
        guard let dictionary = dictionary ?? JapaneseDictionary.installed() else {
            throw .noDictionary(looked: JapaneseDictionary.known.map(\.path))
        }
        guard dictionary.isInstalled else { throw .noDictionary(looked: [dictionary.path]) }
        let mecab: MeCabLibrary
        switch MeCabLibrary.shared {
        case .success(let library): mecab = library
        case .failure(let error): throw .noLibrary(reason: "\(error)")
        }
        self.mecab = mecab
        // An empty resource file: the dictionary folder alone decides, not /etc/mecabrc or ~/.mecabrc.
        let arguments = ["mecab", "--rcfile=/dev/null", "--dicdir=" + dictionary.path]
        var cArguments = arguments.map { strdup($0) }
        defer { for argument in cArguments { free(argument) } }
        let model = cArguments.withUnsafeMutableBufferPointer {
            mecab.modelNew(Int32($0.count), $0.baseAddress)
        }
        guard let model else {
            throw .openFailed(path: dictionary.path, reason: (mecab.strerror(nil).map { String(cString: $0) } ?? ""))
        }
        guard let tagger = mecab.modelNewTagger(model), let lattice = mecab.modelNewLattice(model) else {
            mecab.modelDestroy(model)
            throw .openFailed(path: dictionary.path, reason: (mecab.strerror(nil).map { String(cString: $0) } ?? ""))
        }
        self.dictionary = dictionary
        self.model = model
        self.tagger = tagger
        self.lattice = lattice
    }

    deinit {
        mecab.latticeDestroy(lattice)
        mecab.destroy(tagger)
        mecab.modelDestroy(model)
    }

    /// The words of Japanese text with the kana the Japanese voice reads; other languages have none.
    public func words(of text: String, language: String) -> [ReadingWord] {
        guard languages.contains(language) else { return [] }
        return JapaneseWords.words(morphemes(of: text))
    }

    /// The morphemes MeCab finds in the text, unknown kanji given the readings of their characters.
    public func morphemes(of text: String) -> [Morpheme] {
        if let thread {
            assert(pthread_equal(thread, pthread_self()) != 0, "a JapaneseReader used by two threads")
        } else {
            thread = pthread_self()
        }
        var morphemes: [Morpheme] = []
        let scalars = Array(text.unicodeScalars)
        for piece in TextPieces.pieces(of: scalars) {
            var found = analyse(scalars[piece], at: piece.lowerBound)
            for index in found.indices where found[index].pronunciation == nil {
                found[index].pronunciation = characterReadings(found[index].surface)
            }
            morphemes += found
        }
        return morphemes
    }

    /// Runs MeCab on one piece; `offset` is the piece's first scalar in the text.
    private func analyse(_ scalars: ArraySlice<Unicode.Scalar>, at offset: Int) -> [Morpheme] {
        guard !scalars.isEmpty else { return [] }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(scalars.count * 4 + 1)
        for scalar in scalars { utf8.append(contentsOf: UTF8.encode(scalar)!) }
        // MeCab's tokenizer calls strlen on the sentence though it is given its length (found by
        // AddressSanitizer reading past a one-space sentence): the bytes end with a NUL, not counted.
        // Pieces hold no control character, so it is the only NUL.
        utf8.append(0)
        return utf8.withUnsafeBufferPointer { terminated -> [Morpheme] in
            guard let base = terminated.baseAddress else { return [] }
            let bytes = UnsafeBufferPointer(rebasing: terminated.dropLast())
            let start = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
            mecab.latticeSetSentence(lattice, start, bytes.count)
            guard mecab.parseLattice(tagger, lattice) != 0 else { return [] }
            var morphemes: [Morpheme] = []
            var byte = 0
            var scalar = offset  // where the last morpheme ended
            var node = mecab.latticeBOSNode(lattice)
            while let current = node {
                node = current.pointee.next
                let stat = Int(current.pointee.stat)
                guard stat == MECAB_NOR_NODE || stat == MECAB_UNK_NODE,
                    let surface = current.pointee.surface, let feature = current.pointee.feature
                else { continue }
                // The surface points into the sentence given; anything else would be MeCab's bug.
                let first = UnsafeRawPointer(surface) - UnsafeRawPointer(start)
                let length = Int(current.pointee.length)
                guard first >= byte, length > 0, first + length <= bytes.count else { continue }
                let lower = scalar + scalarCount(bytes[byte..<first])
                let upper = lower + scalarCount(bytes[first..<first + length])
                byte = first + length
                scalar = upper
                morphemes.append(
                    Morpheme(
                        source: lower..<upper,
                        surface: String(decoding: bytes[first..<first + length], as: UTF8.self),
                        features: String(cString: feature)))
            }
            return morphemes
        }
    }

    /// Readings for a word the dictionary does not know, made of the readings of its characters
    /// (a name such as `鬱田`): nil when it has no kanji, or a character has no reading.
    private func characterReadings(_ surface: String) -> String? {
        guard surface.unicodeScalars.contains(where: Kana.isHan), surface.unicodeScalars.count <= 16 else { return nil }
        var reading = ""
        for scalar in surface.unicodeScalars {
            if Kana.isKana(scalar) || Kana.isLongVowelMark(scalar) {
                reading.unicodeScalars.append(scalar)
                continue
            }
            guard let found = analyse([scalar], at: 0).first, found.source == 0..<1,
                let pronunciation = found.pronunciation
            else { return nil }
            reading += pronunciation
        }
        return reading
    }

    private func scalarCount(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }
}

/// Why a Japanese reader could not be opened.
public enum JapaneseReaderError: Error, Equatable, CustomStringConvertible {
    /// No dictionary in the folders looked in.
    case noDictionary(looked: [String])
    /// MeCab refused the dictionary.
    case openFailed(path: String, reason: String)
    /// MeCab's library could not be loaded.
    case noLibrary(reason: String)

    public var description: String {
        switch self {
        case .noDictionary(let looked):
            "No MeCab dictionary for reading Japanese (looked in \(looked.joined(separator: ", "))): kanji are "
                + "spelled, not read. Install one: \(JapaneseDictionary.installCommand)"
        case .noLibrary(let reason):
            "MeCab's library could not be loaded (\(reason)): kanji are spelled, not read. Install it: "
                + "sudo apt install libmecab2"
        case .openFailed(let path, let reason):
            "MeCab could not open the dictionary in \(path): \(reason) Reinstall it: "
                + JapaneseDictionary.installCommand
        }
    }
}
