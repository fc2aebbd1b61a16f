import ModuleProtocol
import Playback

/// Drives the message state machine with arbitrary sequences of commands and playback reports
/// (including reports about stale and future messages) and checks the server's event rules on
/// everything it sends: per message, nothing before `701` but a terminal event, exactly one
/// terminal event, nothing after it, `704` only after a PAUSE, `703` only after a STOP or an
/// abandon, and every message that is halted or abandoned does end.
///
/// Some bytes instead drive the playback tracker as the module does: the synth thread's events
/// for the current message go in, the heard position moves on, and the events it hands out go to
/// the state machine. Checked: nothing comes out before its sample is heard, each event once, in
/// the order it went in, nothing of a message after it was forgotten, and the pause limit is the
/// next `__spd_` mark (else the end, else the reported progress).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var machine = MessageStateMachine()
    var message: UInt64 = 0
    var log = MessageLog()
    var playback = TrackedPlayback()
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
                playback.start(message)
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
        case 10...13:
            playback.synthesize(byte)
            actions = []
        case 14:
            var due: [MessageStateMachine.Action] = []
            for event in playback.hear(UInt64(byte >> 4) * 700) where machine.currentMessage == event.job {
                switch event {
                case .audioStart: due += machine.audioStarted(event.job)
                case .mark(_, let name, _): due += machine.markReached(name, in: event.job)
                case .end: due += machine.audioFinished(event.job)
                case .word, .progress: break
                }
            }
            actions = due
        default:
            playback.checkPauseLimit()
            actions = []
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

/// The tracker, fed as the synth thread feeds it, with what went in kept to check what comes out.
struct TrackedPlayback {
    var tracker = PlaybackTracker()
    var job: UInt64 = 0
    var written: UInt64 = 0
    var heard: UInt64 = 0
    var started = false
    var ended = false
    var endPosition: UInt64?
    /// The events of `job` that went in and have not come out, in order.
    var pending: [SynthesisEvent] = []

    mutating func start(_ next: UInt64) {
        tracker.forget(through: job)
        job = next
        tracker.track(job)
        pending = []
        started = false
        ended = false
        endPosition = nil
    }

    mutating func synthesize(_ byte: UInt8) {
        guard job > 0, !ended else { return }
        var new: [SynthesisEvent] = []
        if !started {
            started = true
            new.append(.audioStart(job: job, position: written))
        }
        switch byte & 0x0F {
        case 10: new.append(.mark(job: job, name: "__spd_\(byte >> 4)", position: written))
        case 11: new.append(.word(job: job, text: 0..<Int(byte >> 4), position: written))
        case 13:
            new.append(.end(job: job, position: written))
            ended = true
            endPosition = written
        default: break
        }
        written += UInt64(byte >> 4) * 441
        new.append(.progress(job: job, position: written))
        // A stale message's events go in too: the tracker must drop them.
        tracker.receive([.mark(job: job &- 1, name: "stale", position: written)] + new)
        pending += new.filter { if case .progress = $0 { false } else { true } }
    }

    mutating func hear(_ step: UInt64) -> [SynthesisEvent] {
        heard += step
        var out: [SynthesisEvent] = []
        while let event = tracker.nextDue(heard: heard) {
            precondition(event.job == job, "an event of a forgotten or untracked message: \(event)")
            precondition(tracker.threshold(of: event) <= heard, "\(event) handed out before it was heard (\(heard))")
            precondition(!pending.isEmpty && pending[0] == event, "\(event) out of order, expected \(pending.first.map { "\($0)" } ?? "nothing")")
            pending.removeFirst()
            out.append(event)
        }
        if let next = pending.first { precondition(tracker.threshold(of: next) > heard, "\(next) was due but held back") }
        return out
    }

    func checkPauseLimit() {
        guard job > 0 else { return }
        let limit = tracker.pauseLimit {
            if case .mark(_, let name, _) = $0 { return name.hasPrefix("__spd_") }
            return false
        }
        let boundary = pending.first {
            if case .mark(_, let name, _) = $0 { return name.hasPrefix("__spd_") }
            return false
        }
        // A mark where its job starts is held a sample later, so the start (and then it) is heard.
        let startsThere = boundary.map { mark in
            pending.contains { if case .audioStart(_, let at) = $0 { at == mark.position } else { false } }
        } ?? false
        let expected = boundary.map { $0.position + (startsThere ? 1 : 0) } ?? endPosition ?? tracker.knownProgress
        precondition(limit == expected, "pause limit \(limit), expected \(expected)")
    }
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
