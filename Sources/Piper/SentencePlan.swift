/// One clause as espeak-ng phonemised it: its IPA phonemes (words apart by spaces) and the
/// stretch of the text it consumed, in scalars.
public struct PhonemizedClause: Equatable, Sendable {
    public var phonemes: String
    public var text: Range<Int>

    public init(phonemes: String, text: Range<Int>) {
        self.phonemes = phonemes
        self.text = text
    }
}

/// What one inference call synthesises: a sentence's phonemes, where its words start in them,
/// and the inline marks that fall in it.
public struct PiperSentence: Equatable, Sendable {
    public var phonemes: [Unicode.Scalar]
    public var words: [Word]
    /// Inline marks (indices into the segment's marks) and the phoneme they come before.
    public var marks: [Mark]
    /// The sentence is the first words of a clause, cut off to be heard sooner: it ends in no pause.
    public var endsMidClause = false
    /// The sentence is the rest of a clause cut by ``endsMidClause``: it starts with no pause.
    public var startsMidClause = false

    public struct Word: Equatable, Sendable {
        /// The word in the plain text, in scalars.
        public var text: Range<Int>
        /// Its first phoneme.
        public var phoneme: Int
    }

    public struct Mark: Equatable, Sendable {
        public var index: Int
        public var phoneme: Int
    }

    /// The clause ends Piper puts into the phonemes: the punctuation espeak-ng 1.51 consumed but
    /// left out; `.`, `?` and `!` end a sentence, the others are followed by a space.
    static let sentenceEnds: Set<Unicode.Scalar> = [".", "?", "!"]
    static let clauseEnds: Set<Unicode.Scalar> = [",", ":", ";"]

    /// With `firstClauseAlone`, a first clause of at least ``cutFirstClauseWords`` words is cut
    /// after ``firstPieceWords`` of them, and its rest again after ``secondPieceWords`` when at
    /// least ``cutClauseWords`` words would follow: each piece is synthesised while the one before
    /// it plays, so each may be a few times longer than the one before.
    public static let cutClauseWords = 7
    /// A first clause of 5 words is cut too (3 and 2): its first sound comes after three words'
    /// inference, not five (joe, the bench's paragraph "The first sentence is here.": see the note).
    public static let cutFirstClauseWords = 5
    public static let firstPieceWords = 3
    public static let secondPieceWords = 12

    /// Groups `clauses` of `text` into sentences as Piper does. With `firstClauseAlone` a first
    /// sentence of several clauses ends after its first, and a long first clause after its first
    /// words: it is synthesised, and heard, sooner.
    ///
    /// `realigns`: the clauses are libespeak-ng's, which read into the next word (see
    /// ``realigned(_:in:)``); false for clauses that say exactly what they consumed. A sentence
    /// holds at most `maximumPhonemes` (a model's context): it ends at a clause before that,
    /// and a clause longer than that is cut between words.
    ///
    /// `cutsWords`: whether a long first clause may be cut between words too; false for a voice
    /// whose words are morphemes (Japanese), where a cut between two of them (発表 し | ます) breaks
    /// the sentence's intonation: its first clause ends at its punctuation (、) only.
    public static func sentences(
        text: NeuralText, clauses: [PhonemizedClause], firstClauseAlone: Bool = false, realigns: Bool = true,
        maximumPhonemes: Int = .max, cutsWords: Bool = true
    ) -> [PiperSentence] {
        var sentences: [PiperSentence] = []
        var current = PiperSentence(phonemes: [], words: [], marks: [])
        for clause in realigns ? realigned(clauses, in: text.scalars) : clauses {
            let consumed = clause.text.clamped(to: 0..<text.scalars.count)
            let clausePhonemes = Array(clause.phonemes.unicodeScalars)
            if !current.phonemes.isEmpty, current.phonemes.count + clausePhonemes.count + 1 > maximumPhonemes {
                while current.phonemes.last == " " { current.phonemes.removeLast() }
                sentences.append(current)
                current = PiperSentence(phonemes: [], words: [], marks: [])
            }
            let phonemeStart = current.phonemes.count
            current.phonemes += clausePhonemes
            // The spoken words: stretches between spaces in the phonemes, and in the text those
            // holding a letter or digit.
            var phonemeWords: [Int] = []
            for (offset, scalar) in clausePhonemes.enumerated() where scalar != " " {
                if offset == 0 || clausePhonemes[offset - 1] == " " { phonemeWords.append(phonemeStart + offset) }
            }
            let textWords = words(in: text.scalars, consumed)
            if !phonemeWords.isEmpty {
                for (index, word) in textWords.enumerated() {
                    let matched =
                        textWords.count == phonemeWords.count
                        ? index : index * phonemeWords.count / textWords.count
                    current.words.append(Word(text: word, phoneme: phonemeWords[matched]))
                }
            }
            let terminator = text.scalars[consumed].last { !$0.properties.isWhitespace }.map {
                KanaPhonemes.clauseEnd($0) ?? $0
            }
            if let terminator, sentenceEnds.contains(terminator) {
                current.phonemes.append(terminator)
                sentences.append(current)
                current = PiperSentence(phonemes: [], words: [], marks: [])
            } else if let terminator, clauseEnds.contains(terminator), firstClauseAlone && sentences.isEmpty {
                current.phonemes.append(terminator)
                sentences.append(current)
                current = PiperSentence(phonemes: [], words: [], marks: [])
            } else if let terminator, clauseEnds.contains(terminator) {
                current.phonemes += [terminator, " "]
            } else if !current.phonemes.isEmpty && current.phonemes.last != " " {
                current.phonemes.append(" ")
            }
        }
        if !current.phonemes.isEmpty {
            while current.phonemes.last == " " { current.phonemes.removeLast() }
            sentences.append(current)
        }
        sentences.removeAll { $0.phonemes.allSatisfy { $0 == " " } && $0.words.isEmpty }
        if maximumPhonemes < .max {
            sentences = sentences.flatMap { $0.pieces(ofAtMost: maximumPhonemes) }
        }
        if firstClauseAlone, cutsWords, let first = sentences.first,
            first.canCut(beforeWord: firstPieceWords, fromWords: cutFirstClauseWords)
        {
            var pieces = first.cut(beforeWord: firstPieceWords)
            if pieces[1].words.count >= secondPieceWords + cutClauseWords,
                pieces[1].canCut(beforeWord: secondPieceWords, fromWords: cutClauseWords)
            {
                pieces.replaceSubrange(1..<2, with: pieces[1].cut(beforeWord: secondPieceWords))
            }
            sentences.replaceSubrange(0..<1, with: pieces)
        }
        // Each mark before the first word at or after it; past every word, at the end.
        for mark in text.marks {
            var placed = false
            for index in sentences.indices {
                if let word = sentences[index].words.first(where: { $0.text.lowerBound >= mark.offset }) {
                    sentences[index].marks.append(Mark(index: mark.index, phoneme: word.phoneme))
                    placed = true
                    break
                }
            }
            if !placed, !sentences.isEmpty {
                let last = sentences.count - 1
                sentences[last].marks.append(Mark(index: mark.index, phoneme: sentences[last].phonemes.count))
            }
        }
        return sentences
    }

    /// The sentence cut between words into pieces of at most `maximum` phonemes (a word longer
    /// than that alone is cut short).
    func pieces(ofAtMost maximum: Int) -> [PiperSentence] {
        guard phonemes.count > maximum, maximum > 0 else { return [self] }
        // The last word that starts within the limit, after the first.
        if let index = words.indices.last(where: { $0 > 0 && words[$0].phoneme <= maximum }),
            words[index].phoneme > words[index - 1].phoneme
        {
            let parts = cut(beforeWord: index)
            return parts[0].pieces(ofAtMost: maximum) + parts[1].pieces(ofAtMost: maximum)
        }
        var short = self
        short.phonemes = Array(phonemes.prefix(maximum))
        short.words = words.filter { $0.phoneme < maximum }
        return [short]
    }

    /// Whether the sentence has at least `minimum` words and word `index` starts after the one
    /// before it in the phonemes (espeak-ng may speak two words as one).
    func canCut(beforeWord index: Int, fromWords minimum: Int) -> Bool {
        words.count >= minimum && index > 0 && index < words.count
            && words[index].phoneme > words[index - 1].phoneme
    }

    /// The sentence as two, the second starting at word `index`.
    func cut(beforeWord index: Int) -> [PiperSentence] {
        let at = words[index].phoneme
        var head = PiperSentence(phonemes: Array(phonemes[..<at]), words: Array(words[..<index]), marks: [])
        while head.phonemes.last == " " { head.phonemes.removeLast() }
        head.startsMidClause = startsMidClause
        head.endsMidClause = true
        var tail = PiperSentence(
            phonemes: Array(phonemes[at...]),
            words: words[index...].map { Word(text: $0.text, phoneme: $0.phoneme - at) }, marks: [])
        tail.startsMidClause = true
        tail.endsMidClause = endsMidClause
        return [head, tail]
    }

    /// The clauses with the text each really spoke. libespeak-ng 1.51 reads past a clause's end
    /// into the next word (it keeps what it read for its next call), so every clause but the
    /// last is cut back to before the word it peeked into, and each one starts where the one
    /// before it ended.
    static func realigned(_ clauses: [PhonemizedClause], in scalars: [Unicode.Scalar]) -> [PhonemizedClause] {
        var result: [PhonemizedClause] = []
        var start = 0
        for (index, clause) in clauses.enumerated() {
            var end = min(scalars.count, max(start, clause.text.upperBound))
            if index < clauses.count - 1 {
                var cut = end
                while cut > start && !scalars[cut - 1].properties.isWhitespace { cut -= 1 }
                if cut > start { end = cut }
            }
            result.append(PhonemizedClause(phonemes: clause.phonemes, text: start..<end))
            start = end
        }
        return result
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// The words of `range`: stretches without whitespace that hold a letter or a digit.
    static func words(in scalars: [Unicode.Scalar], _ range: Range<Int>) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var start: Int?
        var hasLetter = false
        for index in range.lowerBound...range.upperBound {
            let isSpace = index == range.upperBound || scalars[index].properties.isWhitespace
            if isSpace {
                if var begun = start, hasLetter {
                    // A word without the punctuation around it, as espeak-ng reports words.
                    var end = index
                    while !isWordScalar(scalars[begun]) { begun += 1 }
                    while !isWordScalar(scalars[end - 1]) { end -= 1 }
                    found.append(begun..<end)
                }
                start = nil
                hasLetter = false
            } else {
                if start == nil { start = index }
                if isWordScalar(scalars[index]) { hasLetter = true }
            }
        }
        return found
    }
}

/// Where each phoneme is heard in a sentence's samples.
public struct PiperTimeline: Sendable {
    /// The sample offset where each id starts, and the count of samples.
    public let idStarts: [Int]
    public let sampleCount: Int
    /// Whether the starts come from the model's durations, not spread evenly.
    public let isMeasured: Bool

    /// From the model's durations (frames per id) when it gave them, else spread evenly.
    public init(idCount: Int, durations: [Float]?, sampleCount: Int) {
        self.sampleCount = sampleCount
        var starts: [Int] = []
        starts.reserveCapacity(idCount)
        isMeasured = durations?.count == idCount && durations?.allSatisfy({ $0.isFinite && $0 >= 0 }) == true
        if let durations, isMeasured {
            let frames = durations.reduce(0, +)
            // Samples per frame: the model's hop length (256 in Piper's models).
            let scale = frames > 0 ? Double(sampleCount) / Double(frames) : 0
            var sum: Double = 0
            for duration in durations {
                starts.append(min(sampleCount, Int((sum * scale).rounded())))
                sum += Double(duration)
            }
        } else {
            for index in 0..<idCount { starts.append(idCount > 0 ? index * sampleCount / idCount : 0) }
        }
        self.idStarts = starts
    }

    /// The sample at which id `index` starts (past the last: the end).
    public func sample(ofID index: Int) -> Int {
        index >= 0 && index < idStarts.count ? idStarts[index] : sampleCount
    }

    /// A sample at or above this magnitude is heard (−40 dBFS: Utter scales each sentence to full range).
    public static let audibleLevel: Int16 = 328

    /// The sample at which phoneme `index` of `ids` starts to be heard. The model's sound for a
    /// phoneme begins in the pad before it (measured with the joe voice: 1 to 3 frames early,
    /// 17 to 32 ms), so this is the first audible sample from that pad's start on, or the
    /// phoneme's start where the pad is silent.
    public func heardSample(ofPhoneme index: Int, in ids: PhonemeIDs, samples: [Int16]) -> Int {
        let start = sample(ofPhoneme: index, in: ids)
        guard index < ids.starts.count else { return start }
        let padStart = sample(ofID: max(0, ids.starts[index] - ids.padCount))
        let end = min(start, samples.count)
        guard padStart < end else { return start }
        return samples[padStart..<end].firstIndex { abs(Int($0)) >= Int(Self.audibleLevel) } ?? start
    }

    /// The sample at which phoneme `index` of `ids` starts (its count: the end).
    public func sample(ofPhoneme index: Int, in ids: PhonemeIDs) -> Int {
        guard index < ids.starts.count else { return sampleCount }
        let id = ids.starts[index]
        return id < idStarts.count ? idStarts[id] : sampleCount
    }
}
