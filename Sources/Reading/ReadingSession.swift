/// `utter read`'s state: which sentence is heard, which are queued, what a key does. Events go in,
/// actions come out; the command performs them, so every step can be tested without sound.
///
/// Sentences are queued one ahead, so that the next starts as soon as the current one ends. A skip
/// stops both and starts over once their ends have come back, so no late event of theirs is taken
/// for one of the new sentences.
public struct ReadingSession: Sendable {
    public enum Input: Equatable, Sendable {
        /// The sentence's first sound is heard.
        case started(Int)
        /// A word of the sentence is heard: its range in the sentence's text.
        case word(Int, Range<String.Index>)
        /// The sentence was heard to its end, or was cancelled.
        case finished(Int)
        case cancelled(Int)
        case pauseKey, nextKey, previousKey, quitKey
    }

    public enum Action: Equatable, Sendable {
        case speak(Int)
        case pause, resume, stop
        /// Show the sentence, with the word being heard when there is one.
        case show(Int, word: Range<String.Index>?)
        /// Remember the sentence as the place to resume from.
        case save(Int)
        /// The last sentence was heard: forget the place.
        case clear
        /// Reading is over.
        case end
    }

    public let sentenceCount: Int
    /// The sentence shown: being heard, or about to be.
    public private(set) var current: Int
    public private(set) var isPaused = false
    private var lastQueued: Int
    private var inFlight: Set<Int> = []
    private var skipTarget: Int?

    /// A session over `sentenceCount` sentences that starts at `first`.
    public init(sentenceCount: Int, first: Int) {
        precondition((0..<sentenceCount).contains(first), "the first sentence is one of the text's")
        self.sentenceCount = sentenceCount
        current = first
        lastQueued = first
    }

    /// What to do first.
    public mutating func start() -> [Action] {
        queue(from: current)
    }

    public mutating func handle(_ input: Input) -> [Action] {
        switch input {
        case .started(let sentence):
            guard skipTarget == nil else { return [] }
            current = sentence
            return [.show(sentence, word: nil), .save(sentence)]
        case .word(let sentence, let range):
            guard skipTarget == nil, sentence == current else { return [] }
            return [.show(sentence, word: range)]
        case .finished(let sentence):
            inFlight.remove(sentence)
            if let target = skipTarget { return inFlight.isEmpty ? queue(from: target) : [] }
            if sentence == sentenceCount - 1 { return [.clear, .end] }
            guard lastQueued + 1 < sentenceCount else { return [] }
            lastQueued += 1
            inFlight.insert(lastQueued)
            return [.speak(lastQueued)]
        case .cancelled(let sentence):
            inFlight.remove(sentence)
            if let target = skipTarget { return inFlight.isEmpty ? queue(from: target) : [] }
            // Cancelled by someone else (another client of speech-dispatcher): stop here.
            return inFlight.isEmpty ? [.end] : []
        case .pauseKey:
            isPaused.toggle()
            return [isPaused ? .pause : .resume]
        case .nextKey:
            return current + 1 < sentenceCount ? skip(to: current + 1) : []
        case .previousKey:
            return skip(to: max(current - 1, 0))
        case .quitKey:
            return [.stop, .end]
        }
    }

    /// Stops what plays, and resumes if paused: speech-dispatcher holds a paused client's new
    /// messages until it resumes.
    private mutating func skip(to sentence: Int) -> [Action] {
        let stopping = skipTarget == nil
        let resuming = isPaused
        skipTarget = sentence
        current = sentence
        isPaused = false
        return (stopping ? [.stop] : []) + (resuming ? [.resume] : []) + [.show(sentence, word: nil)]
    }

    /// Speaks `first` and queues the sentence after it.
    private mutating func queue(from first: Int) -> [Action] {
        skipTarget = nil
        current = first
        lastQueued = min(first + 1, sentenceCount - 1)
        inFlight = Set(first...lastQueued)
        // Paused while the skip was under way: the new sentences wait too.
        return (first...lastQueued).map(Action.speak) + (isPaused ? [.pause] : [])
    }
}
