import ModuleProtocol
import Testing

typealias Action = MessageStateMachine.Action

@Test func `a message begins, reports marks and ends`() {
    var machine = MessageStateMachine()
    machine.accept(1)
    #expect(machine.audioStarted(1) == [.send(.begin)])
    #expect(machine.audioStarted(1) == [])
    #expect(machine.markReached("a", in: 1) == [.send(.indexMark("a"))])
    #expect(machine.audioFinished(1) == [.send(.end)])
    #expect(machine.currentMessage == nil)
}

@Test func `nothing is sent after the terminal event`() {
    var machine = MessageStateMachine()
    machine.accept(1)
    _ = machine.audioFinished(1)
    #expect(machine.audioStarted(1) == [])
    #expect(machine.markReached("late", in: 1) == [])
    #expect(machine.audioFinished(1) == [])
    #expect(machine.playbackHalted(1) == [])
    #expect(machine.stop() == [])
    #expect(machine.pause() == [])
}

@Test func `a mark before the first sample brings BEGIN first`() {
    var machine = MessageStateMachine()
    machine.accept(1)
    #expect(machine.markReached("m", in: 1) == [.send(.begin), .send(.indexMark("m"))])
}

@Test func `a message without audio still begins before it ends`() {
    var machine = MessageStateMachine()
    machine.accept(1)
    #expect(machine.audioFinished(1) == [.send(.begin), .send(.end)])
}

@Test func `STOP before BEGIN sends STOP alone`() {
    var machine = MessageStateMachine()
    machine.accept(4)
    #expect(machine.stop() == [.haltPlayback(.stop)])
    #expect(machine.audioStarted(4) == [])
    #expect(machine.markReached("x", in: 4) == [])
    #expect(machine.audioFinished(4) == [])
    #expect(machine.playbackHalted(4) == [.send(.stopped)])
    #expect(machine.currentMessage == nil)
}

@Test func `a double STOP halts once and ends once`() {
    var machine = MessageStateMachine()
    machine.accept(1)
    _ = machine.audioStarted(1)
    #expect(machine.stop() == [.haltPlayback(.stop)])
    #expect(machine.stop() == [])
    #expect(machine.playbackHalted(1) == [.send(.stopped)])
    #expect(machine.playbackHalted(1) == [])
}

@Test func `STOP and PAUSE while idle are ignored`() {
    var machine = MessageStateMachine()
    #expect(machine.stop() == [])
    #expect(machine.pause() == [])
    #expect(machine.abandon() == [])
}

@Test func `PAUSE plays on to the next spd mark, reports it, then pauses`() {
    var machine = MessageStateMachine()
    machine.accept(2)
    _ = machine.audioStarted(2)
    #expect(machine.pause() == [.pauseRequested])
    #expect(machine.pause() == [])
    #expect(machine.markReached("client", in: 2) == [.send(.indexMark("client"))])
    #expect(machine.markReached("__spd_1", in: 2) == [.send(.indexMark("__spd_1")), .haltPlayback(.pause)])
    #expect(machine.markReached("__spd_2", in: 2) == [])
    #expect(machine.playbackHalted(2) == [.send(.paused)])
}

@Test func `PAUSE without marks plays to the end and then pauses`() {
    var machine = MessageStateMachine()
    machine.accept(3)
    _ = machine.audioStarted(3)
    _ = machine.pause()
    #expect(machine.audioFinished(3) == [.send(.paused)])
}

@Test func `STOP while a pause is halting ends with STOP`() {
    var machine = MessageStateMachine()
    machine.accept(1)
    _ = machine.pause()
    _ = machine.markReached("__spd_0", in: 1)
    #expect(machine.stop() == [])
    #expect(machine.playbackHalted(1) == [.send(.stopped)])
}

@Test func `reports about another message are ignored`() {
    var machine = MessageStateMachine()
    machine.accept(7)
    #expect(machine.audioStarted(6) == [])
    #expect(machine.markReached("old", in: 6) == [])
    #expect(machine.audioFinished(6) == [])
    #expect(machine.audioFinished(7) == [.send(.begin), .send(.end)])
}

@Test func `abandoning a speaking message sends STOP`() {
    var machine = MessageStateMachine()
    machine.accept(1)
    _ = machine.audioStarted(1)
    #expect(machine.abandon() == [.send(.stopped)])
    #expect(machine.currentMessage == nil)
}

/// Random inputs never break the event rules: checked against the rules themselves.
@Test func `random input sequences keep every event rule`() {
    var generator = SplitMix(seed: 0x5eed)
    for _ in 0..<2000 {
        var machine = MessageStateMachine()
        var message: UInt64 = 0
        var sent: [Event] = []
        var accepted = false
        for _ in 0..<40 {
            var actions: [Action] = []
            switch generator.next() % 8 {
            case 0:
                if machine.currentMessage == nil {
                    message += 1
                    machine.accept(message)
                    checkRules(sent, accepted: accepted)
                    sent = []
                    accepted = true
                }
            case 1: actions = machine.stop()
            case 2: actions = machine.pause()
            case 3: actions = machine.audioStarted(message &- UInt64(generator.next() % 2))
            case 4: actions = machine.markReached(generator.next() % 2 == 0 ? "__spd_1" : "m", in: message)
            case 5: actions = machine.audioFinished(message)
            case 6: actions = machine.playbackHalted(message)
            default: actions = machine.abandon()
            }
            for case .send(let event) in actions { sent.append(event) }
        }
        checkRules(sent, accepted: accepted)
    }
}

private func checkRules(_ events: [Event], accepted: Bool) {
    guard accepted else {
        #expect(events.isEmpty)
        return
    }
    let terminals = events.indices.filter { events[$0].isTerminal }
    #expect(terminals.count <= 1, "more than one terminal event: \(events)")
    if let last = terminals.first { #expect(last == events.count - 1, "events after the terminal one: \(events)") }
    if let first = events.first, first != .begin { #expect(first == .stopped || first == .paused, "\(events)") }
    #expect(events.filter { $0 == .begin }.count <= 1)
    if events.contains(where: { if case .indexMark = $0 { true } else { $0 == .end } }) {
        #expect(events.first == .begin, "a 700 or 702 before 701: \(events)")
    }
}

struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
