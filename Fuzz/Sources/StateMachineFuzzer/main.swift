import ModuleProtocol

/// Drives the message state machine with arbitrary sequences of commands and playback reports
/// (including reports about stale and future messages) and checks the server's event rules on
/// everything it sends: per message, nothing before `701` but a terminal event, exactly one
/// terminal event, nothing after it, `704` only after a PAUSE, `703` only after a STOP or an
/// abandon, and every message that is halted or abandoned does end.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var machine = MessageStateMachine()
    var message: UInt64 = 0
    var log = MessageLog()
    var index = 0
    while index < size {
        let byte = data[index]
        index += 1
        // The high bits pick a message relative to the current one: stale, current or next.
        let target = message &+ UInt64(byte >> 6) &- 1
        let actions: [MessageStateMachine.Action]
        switch byte & 0x0F {
        case 0, 1:
            if machine.currentMessage == nil {
                log.finish()
                message += 1
                machine.accept(message)
                log = MessageLog()
            }
            actions = []
        case 2:
            if machine.currentMessage != nil { log.stopRequested = true }
            actions = machine.stop()
        case 3:
            if machine.currentMessage != nil && !machine.isHalting { log.pauseRequested = true }
            actions = machine.pause()
        case 4: actions = machine.audioStarted(target)
        case 5: actions = machine.markReached("m\(byte >> 4)", in: target)
        case 6: actions = machine.markReached("__spd_\(byte >> 4)", in: target)
        case 7: actions = machine.audioFinished(target)
        case 8: actions = machine.playbackHalted(target)
        case 9:
            if machine.currentMessage != nil { log.abandoned = true }
            actions = machine.abandon()
        default: actions = []
        }
        for action in actions {
            switch action {
            case .send(let event): log.record(event)
            case .haltPlayback:
                precondition(machine.isHalting, "halt requested but the machine is not halting")
                // Silence always comes: the playback report must end the message.
                let ended = machine.playbackHalted(message)
                for case .send(let event) in ended { log.record(event) }
                precondition(machine.currentMessage == nil, "a halted message did not end")
            case .pauseRequested:
                precondition(machine.isPausePending, "pause requested but none is pending")
            }
        }
        if machine.currentMessage == nil { precondition(log.ended || message == 0, "idle with no terminal event") }
    }
    if machine.currentMessage != nil {
        log.abandoned = true
        for case .send(let event) in machine.abandon() { log.record(event) }
    }
    log.finish()
    return 0
}

/// The events of one message, checked as they are sent.
struct MessageLog {
    var events: [Event] = []
    var stopRequested = false
    var pauseRequested = false
    var abandoned = false
    var ended: Bool { events.last?.isTerminal ?? false }

    mutating func record(_ event: Event) {
        precondition(!ended, "an event after the terminal one: \(events) then \(event)")
        switch event {
        case .begin:
            precondition(events.isEmpty, "BEGIN twice or late: \(events)")
        case .stopped:
            precondition(stopRequested || abandoned, "703 without STOP: \(events)")
        case .paused:
            precondition(pauseRequested, "704 without PAUSE: \(events)")
        case .end, .indexMark:
            precondition(events.first == .begin, "\(event) before BEGIN: \(events)")
        default: break
        }
        events.append(event)
    }

    func finish() {
        guard !events.isEmpty else { return }
        precondition(events.filter(\.isTerminal).count == 1, "not exactly one terminal event: \(events)")
    }
}
