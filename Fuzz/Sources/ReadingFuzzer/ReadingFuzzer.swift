import Reading

/// Reads the input as Markdown and as a text to show and read: the readable text must be
/// paragraphs without blank runs; each screen line must fit the width and the lines together hold
/// every character of the sentence but the spaces they were broken at; the session driven by the
/// input's bytes must only speak sentences of the text and show the one it says is current.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)

    let readable = MarkdownText.readable(text)
    precondition(!readable.contains("\n\n\n"), "a blank run in \(readable.debugDescription)")
    precondition(readable.first?.isNewline != true && readable.last?.isNewline != true)
    _ = LanguageGuess.language(of: text)

    let sentence = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    let columns = 10 + Int(size > 0 ? bytes[0] % 70 : 0)
    let word = sentence.isEmpty ? nil : sentence.startIndex..<sentence.index(after: sentence.startIndex)
    let lines = ReadingScreen.lines(sentence: sentence, number: 1, of: 1, word: word, columns: columns)
    for line in lines.dropFirst() {
        let visible = withoutEscapes(line)
        precondition(visible.count <= columns, "\(visible.debugDescription) is wider than \(columns)")
    }
    let shown = withoutEscapes(lines.dropFirst().joined())
    precondition(
        shown.filter { !$0.isWhitespace } == ReadingScreen.printable(sentence[...]).filter { !$0.isWhitespace },
        "characters lost in \(lines)")

    let count = 1 + Int(size > 1 ? bytes[1] % 5 : 0)
    var session = ReadingSession(sentenceCount: count, first: 0)
    var actions = session.start()
    var playing: [Int] = []  // what the channel would have, in order
    var stopped: [Int] = []  // what it stopped and has yet to report cancelled
    for byte in bytes.dropFirst(3) {
        for action in actions {
            switch action {
            case .speak(let index):
                precondition((0..<count).contains(index), "speaks \(index) of \(count)")
                playing.append(index)
            case .stop:
                stopped += playing
                playing.removeAll()
            case .show(let index, _): precondition(index == session.current, "shows \(index), at \(session.current)")
            case .save(let index): precondition((0..<count).contains(index))
            case .end: return 0
            case .pause, .resume, .clear: break
            }
        }
        let input: ReadingSession.Input
        if !stopped.isEmpty && byte % 8 >= 4 {
            actions = session.handle(.cancelled(stopped.removeFirst()))
            continue
        }
        switch byte % 8 {
        case 0: input = .pauseKey
        case 1: input = .nextKey
        case 2: input = .previousKey
        case 3: input = playing.first.map(ReadingSession.Input.started) ?? .pauseKey
        case 4, 5: input = playing.isEmpty ? .pauseKey : .finished(playing.removeFirst())
        case 6: input = playing.isEmpty ? .pauseKey : .cancelled(playing.removeFirst())
        default: input = byte == 255 ? .quitKey : .pauseKey
        }
        actions = session.handle(input)
    }
    return 0
}

/// `line` without its reverse-video escapes, taken out scalar by scalar: a combining mark after an
/// escape joins its `m` into one character, which a search for the escape would miss.
private func withoutEscapes(_ line: String) -> String {
    var scalars: [Unicode.Scalar] = []
    var escape = false
    for scalar in line.unicodeScalars {
        if scalar == "\u{1B}" { escape = true }
        if !escape { scalars.append(scalar) }
        if escape && scalar == "m" { escape = false }
    }
    return String(String.UnicodeScalarView(scalars))
}
