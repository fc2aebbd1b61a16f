import ModuleProtocol

/// Feeds arbitrary bytes, in arbitrary pieces, through the line splitter, the command reader and the
/// message state machine, and checks the event rules on whatever comes out. The reader takes a
/// message's lines in pieces as they arrive, as the module does: what it reads must be what it
/// reads from the same bytes taken as whole lines (a differential check).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let first = bytes.first else { return 0 }
    // The first byte chooses the piece size, so splits at every position get exercised.
    let piece = Int(first % 17) + 1
    var splitter = LineSplitter(maximumLineLength: 4096)
    var reader = CommandReader()
    var machine = MessageStateMachine()
    var settings = SpeechSettings()
    var message: UInt64 = 0
    var sent: [Event] = []
    var outputs: [CommandReader.Output] = []
    var index = 1
    while index < bytes.count {
        let end = min(bytes.count, index + piece)
        splitter.append(Array(bytes[index..<end])[...], handsOverPartialLines: { reader.takesPartialLines }) { line in
            guard let output = reader.read(line) else { return }
            outputs.append(output)
            guard case .command(let command) = output else { return }
            var actions: [MessageStateMachine.Action] = []
            switch command {
            case .set(let block): _ = settings.apply(block)
            case .message:
                if machine.currentMessage == nil {
                    check(sent)
                    sent = []
                    message += 1
                    machine.accept(message)
                }
            case .stop: actions = machine.stop()
            case .pause: actions = machine.pause()
            case .quit: actions = machine.abandon()
            // Lines that are no command stand in for playback reports, so they reach the machine too.
            case .unknown(let line):
                switch line.utf8.first.map({ $0 % 4 }) {
                case 0: actions = machine.audioStarted(message)
                case 1: actions = machine.markReached(line, in: message)
                case 2: actions = machine.audioFinished(message)
                default: actions = machine.playbackHalted(message)
                }
            default: break
            }
            for case .send(let event) in actions { sent.append(event) }
            _ =
                Reply.voiceList([VoiceListEntry(name: line.bytes.isEmpty ? "x" : "\(line.bytes.count)", language: "en")]
                ).encoded
        }
        index = end
    }
    check(sent)
    var wholeSplitter = LineSplitter(maximumLineLength: 4096)
    var wholeReader = CommandReader()
    var whole: [CommandReader.Output] = []
    wholeSplitter.append(Array(bytes.dropFirst())[...]) { line in
        if let output = wholeReader.read(line.bytes) { whole.append(output) }
    }
    precondition(outputs == whole, "read in pieces: \(outputs)\nread whole: \(whole)")
    return 0
}

/// Traps when one message's events break the server's rules.
private func check(_ events: [Event]) {
    let terminals = events.filter(\.isTerminal).count
    precondition(terminals <= 1, "two terminal events: \(events)")
    if terminals == 1 { precondition(events.last!.isTerminal, "an event after the terminal one: \(events)") }
    if let first = events.first, first != .begin {
        precondition(first == .stopped || first == .paused, "an event before BEGIN: \(events)")
    }
}
