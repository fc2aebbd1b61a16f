import ModuleProtocol
import Testing

/// Feeds `bytes` to a splitter and reader in pieces of `chunk` bytes, a message's lines handed
/// over in pieces as they arrive (as the module reads them) unless `wholeLines`.
func readAll(_ bytes: [UInt8], chunk: Int, wholeLines: Bool = false) -> [CommandReader.Output] {
    var splitter = LineSplitter()
    var reader = CommandReader()
    var outputs: [CommandReader.Output] = []
    var index = 0
    while index < bytes.count {
        let end = min(bytes.count, index + chunk)
        splitter.append(bytes[index..<end], handsOverPartialLines: { !wholeLines && reader.takesPartialLines }) { line in
            if let output = reader.read(line) { outputs.append(output) }
        }
        index = end
    }
    return outputs
}

/// One message exchange as the 0.11.4 server writes it (transcript 03).
let messageSession = Array(
    """
    SET
    pitch=0
    pitch_range=0
    rate=0
    volume=100
    punctuation_mode=none
    spelling_mode=off
    cap_let_recogn=none
    voice=male1
    language=en-US
    synthesis_voice=NULL
    .
    SPEAK
    <speak>Hello world.<mark name="__spd_0"/> This is a plain text message.</speak>
    .
    STOP
    LIST VOICES
    DEBUG ON /tmp/x.log 
    QUIT

    """.utf8)

let expectedSession: [CommandReader.Output] = [
    .blockStarted(.settings),
    .command(
        .set(
            SettingsBlock(settings: [
                Setting(name: "pitch", value: "0"), Setting(name: "pitch_range", value: "0"),
                Setting(name: "rate", value: "0"), Setting(name: "volume", value: "100"),
                Setting(name: "punctuation_mode", value: "none"), Setting(name: "spelling_mode", value: "off"),
                Setting(name: "cap_let_recogn", value: "none"), Setting(name: "voice", value: "male1"),
                Setting(name: "language", value: "en-US"), Setting(name: "synthesis_voice", value: "NULL"),
            ]))),
    .blockStarted(.message(.speak)),
    .command(
        .message(
            .speak,
            MessageData(
                text: "<speak>Hello world.<mark name=\"__spd_0\"/> This is a plain text message.</speak>",
                lineCount: 1))),
    .command(.stop),
    .command(.listVoices(language: nil, variant: nil)),
    .command(.debugOn(path: "/tmp/x.log")),
    .command(.quit),
]

@Test(arguments: 1...64)
func `a session split into chunks of any size reads the same`(chunk: Int) {
    #expect(readAll(messageSession, chunk: chunk) == expectedSession)
}

@Test func `a session split at every byte position reads the same`() {
    for split in 0...messageSession.count {
        var splitter = LineSplitter()
        var reader = CommandReader()
        var outputs: [CommandReader.Output] = []
        for part in [messageSession[..<split], messageSession[split...]] {
            splitter.append(part, handsOverPartialLines: { reader.takesPartialLines }) { line in
                if let output = reader.read(line) { outputs.append(output) }
            }
        }
        #expect(outputs == expectedSession, "split at \(split)")
    }
}

@Test func `dot-stuffing removes exactly one leading dot from every line`() {
    // Transcript 03: client text ".leading dot\n.\n..two dots".
    let bytes = Array("SPEAK\n<speak>.leading dot\n..<mark name=\"__spd_0\"/>\n...two dots</speak>\n.\n".utf8)
    let outputs = readAll(bytes, chunk: 7)
    #expect(
        outputs.last
            == .command(
                .message(
                    .speak,
                    MessageData(
                        text: "<speak>.leading dot\n.<mark name=\"__spd_0\"/>\n..two dots</speak>", lineCount: 3))))
}

@Test func `a text ending in a newline keeps it`() {
    let outputs = readAll(Array("SPEAK\nline\n\n.\n".utf8), chunk: 3)
    #expect(outputs.last == .command(.message(.speak, MessageData(text: "line\n", lineCount: 2))))
}

@Test func `CR is data, not a line end`() {
    let outputs = readAll(Array("SPEAK\na\r\nb\r\n.\n".utf8), chunk: 1)
    #expect(outputs.last == .command(.message(.speak, MessageData(text: "a\r\nb\r", lineCount: 2))))
}

@Test func `invalid UTF-8 is repaired and flagged`() {
    let outputs = readAll([0x43, 0x48, 0x41, 0x52, 0x0A, 0xFF, 0x61, 0x0A, 0x2E, 0x0A], chunk: 2)
    #expect(
        outputs.last
            == .command(.message(.character, MessageData(text: "\u{FFFD}a", lineCount: 1, hadInvalidUTF8: true))))
}

@Test func `commands are recognised exactly and everything else is unknown`() {
    let lines = [
        "INIT", "STOP", "PAUSE", "QUIT", "LIST VOICES", "LIST VOICES de", "LIST VOICES de-DE male1",
        "DEBUG OFF ", "stop", "SPEAK NOW", "", "LIST VOICES a b c",
    ]
    var reader = CommandReader()
    let outputs = lines.map { reader.read(Array($0.utf8)) }
    #expect(
        outputs == [
            .command(.initialize), .command(.stop), .command(.pause), .command(.quit),
            .command(.listVoices(language: nil, variant: nil)), .command(.listVoices(language: "de", variant: nil)),
            .command(.listVoices(language: "de-DE", variant: "male1")), .command(.debugOff),
            .command(.unknown("stop")), .command(.unknown("SPEAK NOW")), .command(.unknown("")),
            .command(.unknown("LIST VOICES a b c")),
        ])
}

@Test func `block lines without an equals sign are kept for the log`() {
    let outputs = readAll(Array("SET\nrate=10\nbroken line\n=x\n.\n".utf8), chunk: 5)
    #expect(
        outputs.last
            == .command(
                .set(
                    SettingsBlock(
                        settings: [Setting(name: "rate", value: "10")], malformedLines: ["broken line", "=x"]))))
}

@Test func `values keep spaces, equals signs and plus signs`() {
    let outputs = readAll(Array("SET\nsynthesis_voice=English (America)+Annie=x\n.\n".utf8), chunk: 4)
    #expect(
        outputs.last
            == .command(
                .set(SettingsBlock(settings: [Setting(name: "synthesis_voice", value: "English (America)+Annie=x")]))))
}

@Test func `an overlong line is cut and flagged, and the next line is whole`() {
    var splitter = LineSplitter(maximumLineLength: 8)
    var lines: [LineSplitter.Line] = []
    splitter.append(Array("0123456789abc\nSTOP\n".utf8)) { lines.append($0) }
    #expect(
        lines == [
            LineSplitter.Line(bytes: Array("01234567".utf8), isTruncated: true),
            LineSplitter.Line(bytes: Array("STOP".utf8)),
        ])
}

/// Messages whose lines arrive in pieces: multi-byte UTF-8, invalid bytes, dot-stuffed lines, a
/// line that is a lone dot, empty lines.
private let piecedMessages: [[UInt8]] = [
    Array("SPEAK\n<speak>日本語のテキスト。Ünïcödé 🎉 text</speak>\n.\nSTOP\n".utf8),
    Array("SPEAK\n..\n.x\n\n...\n.\nSET\nrate=10\n.\n".utf8),
    Array("SPEAK\nab".utf8) + [0xE3, 0x81] + Array("cd".utf8) + [0xFF, 0xC3] + Array("\n".utf8) + [0xF0, 0x9F, 0x8E]
        + Array("\n.\nCHAR\nx\n.\n".utf8),
]

@Test(arguments: 0..<3)
func `a message handed over in pieces reads as when its lines come whole, split anywhere`(which: Int) {
    let bytes = piecedMessages[which]
    let whole = readAll(bytes, chunk: bytes.count, wholeLines: true)
    #expect(whole.contains { if case .command(.message) = $0 { true } else { false } })
    for chunk in 1...bytes.count {
        #expect(readAll(bytes, chunk: chunk) == whole, "chunks of \(chunk)")
    }
    for first in 0...bytes.count {
        for second in first...bytes.count {
            var splitter = LineSplitter()
            var reader = CommandReader()
            var outputs: [CommandReader.Output] = []
            for part in [bytes[..<first], bytes[first..<second], bytes[second...]] {
                splitter.append(part, handsOverPartialLines: { reader.takesPartialLines }) { line in
                    if let output = reader.read(line) { outputs.append(output) }
                }
            }
            #expect(outputs == whole, "split at \(first) and \(second)")
        }
    }
}

@Test func `a piece of a line never splits a UTF-8 sequence and a line's first piece is never a lone dot`() {
    let text = Array(".é日🎉".utf8)
    for chunk in 1...text.count {
        var splitter = LineSplitter()
        var pieces: [LineSplitter.Line] = []
        var index = 0
        while index < text.count {
            let end = min(text.count, index + chunk)
            splitter.append(text[index..<end], handsOverPartialLines: { true }) { pieces.append($0) }
            index = end
        }
        splitter.append([0x0A]) { pieces.append($0) }
        #expect(pieces.last?.isComplete == true)
        #expect(pieces.dropLast().allSatisfy { !$0.isComplete })
        #expect(pieces.flatMap(\.bytes) == text, "chunks of \(chunk)")
        #expect(pieces.allSatisfy { String(validating: $0.bytes, as: UTF8.self) != nil }, "chunks of \(chunk): \(pieces)")
        #expect(pieces.first?.bytes.elementsEqual([0x2E]) == false || pieces.count == 1)
    }
    // A lone dot is kept until its line ends: it may be the block's end.
    var splitter = LineSplitter()
    var pieces: [LineSplitter.Line] = []
    splitter.append([0x2E], handsOverPartialLines: { true }) { pieces.append($0) }
    #expect(pieces.isEmpty)
    splitter.append([0x0A]) { pieces.append($0) }
    #expect(pieces == [LineSplitter.Line(bytes: [0x2E])])
}
