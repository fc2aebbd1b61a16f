import Reading
import Testing

private let text = "word"
private let word = text.startIndex..<text.endIndex

@Test func `sentences are queued one ahead and each is shown and saved as it starts`() {
    var session = ReadingSession(sentenceCount: 3, first: 0)
    #expect(session.start() == [.speak(0), .speak(1)])
    #expect(session.handle(.started(0)) == [.show(0, word: nil), .save(0)])
    #expect(session.handle(.word(0, word)) == [.show(0, word: word)])
    #expect(session.handle(.finished(0)) == [.speak(2)])
    #expect(session.handle(.started(1)) == [.show(1, word: nil), .save(1)])
    #expect(session.handle(.finished(1)) == [])
    #expect(session.handle(.started(2)) == [.show(2, word: nil), .save(2)])
    #expect(session.handle(.finished(2)) == [.clear, .end])
}

@Test func `next stops both sentences and starts after their ends, ignoring their late words`() {
    var session = ReadingSession(sentenceCount: 5, first: 1)
    #expect(session.start() == [.speak(1), .speak(2)])
    _ = session.handle(.started(1))
    #expect(session.handle(.nextKey) == [.stop, .show(2, word: nil)])
    #expect(session.handle(.nextKey) == [.show(3, word: nil)])
    #expect(session.handle(.word(1, word)) == [])
    #expect(session.handle(.cancelled(1)) == [])
    #expect(session.handle(.cancelled(2)) == [.speak(3), .speak(4)])
    #expect(session.handle(.started(3)) == [.show(3, word: nil), .save(3)])
    #expect(session.current == 3)
}

@Test func `previous goes back one, or restarts the first; next on the last does nothing`() {
    var session = ReadingSession(sentenceCount: 2, first: 0)
    _ = session.start()
    _ = session.handle(.started(0))
    #expect(session.handle(.previousKey) == [.stop, .show(0, word: nil)])
    #expect(session.handle(.cancelled(0)) == [])
    #expect(session.handle(.cancelled(1)) == [.speak(0), .speak(1)])
    _ = session.handle(.finished(0))
    _ = session.handle(.started(1))
    #expect(session.handle(.nextKey) == [])
    #expect(session.handle(.previousKey) == [.stop, .show(0, word: nil)])
    #expect(session.handle(.cancelled(1)) == [.speak(0), .speak(1)])
}

@Test func `space pauses and resumes, a skip while paused plays on`() {
    var session = ReadingSession(sentenceCount: 3, first: 0)
    _ = session.start()
    #expect(session.handle(.pauseKey) == [.pause])
    #expect(session.isPaused)
    #expect(session.handle(.pauseKey) == [.resume])
    #expect(session.handle(.pauseKey) == [.pause])
    #expect(session.handle(.nextKey) == [.stop, .resume, .show(1, word: nil)])
    #expect(!session.isPaused)
    #expect(session.handle(.pauseKey) == [.pause])
    #expect(session.handle(.nextKey) == [.resume, .show(2, word: nil)])
    #expect(session.handle(.pauseKey) == [.pause])
    #expect(session.handle(.cancelled(0)) == [])
    #expect(session.handle(.cancelled(1)) == [.speak(2), .pause])
}

@Test func `quit stops and ends, a cancel from elsewhere ends once nothing is left`() {
    var session = ReadingSession(sentenceCount: 3, first: 0)
    _ = session.start()
    #expect(session.handle(.quitKey) == [.stop, .end])
    var other = ReadingSession(sentenceCount: 3, first: 0)
    _ = other.start()
    #expect(other.handle(.cancelled(0)) == [])
    #expect(other.handle(.cancelled(1)) == [.end])
}

@Test func `a one-sentence text queues only it`() {
    var session = ReadingSession(sentenceCount: 1, first: 0)
    #expect(session.start() == [.speak(0)])
    #expect(session.handle(.finished(0)) == [.clear, .end])
}
