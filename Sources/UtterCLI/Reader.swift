import Reading
import System
import UtterKit

/// Performs a ``ReadingSession``: speaks its sentences through a channel, feeds it their events
/// and the keys pressed, shows what it asks for and keeps the place.
struct Reader {
    let channel: any SpeechChannel
    let sentences: ReadingSentences
    let places: ReadingPlaces?
    let hash: UInt64
    let interactive: Bool
    /// What is said for a sentence (its text as shown, with the voice and settings asked for).
    let utterance: (String) -> Utterance

    func read(from first: Int) async throws {
        let (inputs, sink) = AsyncStream.makeStream(of: ReadingSession.Input.self, bufferingPolicy: .unbounded)
        var keys: KeyReader?
        if interactive {
            do {
                keys = try KeyReader()
            } catch {
                throw UtterError("Cannot read keys from the terminal: \(error).")
            }
        }
        defer { keys?.close() }
        if let keys {
            Task {
                for await key in keys.keys {
                    if let input = Self.input(for: key) { sink.yield(input) }
                }
            }
        }
        // Every sentence's events go through one task, a sentence's only after the one before it
        // ended: a task per sentence could hand the next sentence's start over before this one's
        // (seen rendering to a file on a busy machine: the lines of a pipe came out of order).
        let (spoken, spokenSink) = AsyncStream.makeStream(
            of: (sentence: Int, events: AsyncStream<SpeechEvent>).self, bufferingPolicy: .unbounded)
        defer { spokenSink.finish() }
        Task {
            for await (sentence, events) in spoken {
                for await event in events {
                    if let input = Self.input(for: event, of: sentence) { sink.yield(input) }
                }
            }
        }
        var session = ReadingSession(sentenceCount: sentences.count, first: first)
        var display = ReadingDisplay(sentences: sentences, interactive: interactive)
        var warned = false
        var actions = session.start()
        var iterator = inputs.makeAsyncIterator()
        reading: while true {
            for action in actions {
                switch action {
                case .speak(let sentence):
                    spokenSink.yield((sentence, channel.speak(utterance(display.text(of: sentence)))))
                case .pause:
                    channel.pause(at: .immediate)
                    Terminal.write(display.show(paused: true, columns: Terminal.columns, rows: Terminal.rows))
                case .resume:
                    channel.resume()
                    Terminal.write(display.show(paused: false, columns: Terminal.columns, rows: Terminal.rows))
                case .stop: channel.stop(at: .immediate)
                case .show(let sentence, let word):
                    Terminal.write(display.show(sentence, word: word, columns: Terminal.columns, rows: Terminal.rows))
                case .save(let sentence):
                    guard let places else { break }
                    do {
                        try places.save(ReadingPosition(sentence: sentence, textHash: hash))
                    } catch {
                        // Reading goes on; the next reading starts at the beginning.
                        if !warned { warn("utter read: cannot keep the place in \(places.record): \(error).\n") }
                        warned = true
                    }
                case .clear: places?.clear()
                case .end: break reading
                }
            }
            guard let input = await iterator.next() else { break }
            actions = session.handle(input)
        }
        Terminal.write(display.finish())
    }

    private func warn(_ message: String) {
        _ = Array(message.utf8).withUnsafeBytes { BorrowedDescriptor(2).writeAll($0) }
    }

    private static func input(for key: Key) -> ReadingSession.Input? {
        switch key {
        case .character(" "): .pauseKey
        case .character("n"), .character("N"), .right, .down: .nextKey
        case .character("p"), .character("P"), .left, .up: .previousKey
        case .character("q"), .character("Q"), .interrupt, .escape: .quitKey
        case .character: nil
        }
    }

    private static func input(for event: SpeechEvent, of sentence: Int) -> ReadingSession.Input? {
        switch event {
        case .started: .started(sentence)
        case .word(let range): .word(sentence, range)
        case .finished: .finished(sentence)
        case .cancelled: .cancelled(sentence)
        case .mark, .paused, .resumed: nil
        }
    }
}
