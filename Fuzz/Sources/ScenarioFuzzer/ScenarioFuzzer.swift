import Scenario

/// Reads arbitrary text as a scenario: it must never trap, every problem must name a real line,
/// and a scenario that reads must play to its end whatever keys are pressed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    let lineCount = text.utf8.count { $0 == UInt8(ascii: "\n") } + 1
    let scenario: Scenario
    do {
        scenario = try Scenario(parsing: text)
    } catch {
        switch error {
        case .syntax(let syntax):
            precondition((1...lineCount).contains(syntax.line) && syntax.column >= 1, "\(syntax)")
        case .invalid(let problems):
            precondition(!problems.isEmpty)
            for problem in problems { precondition((1...lineCount).contains(problem.line), "\(problem)") }
        }
        return 0
    }
    precondition(!scenario.actions.isEmpty && scenario.presets.count <= 9)
    play(scenario, keys: bytes)
    return 0
}

/// Plays `scenario`, taking the input's bytes as what happens next, then the end of everything.
private func play(_ scenario: Scenario, keys: UnsafeBufferPointer<UInt8>) {
    var player = ScenarioPlayer(scenario: scenario)
    var speech = 0
    var timer = 0
    var finished = false
    func apply(_ effects: [ScenarioPlayer.Effect]) {
        for effect in effects {
            switch effect {
            case .speak(let spoken, let number):
                precondition(number > speech && !spoken.text.isEmpty)
                speech = number
            case .startTimer(_, let number): timer = number
            case .showSlide(let index): precondition(index >= 0)
            case .finish: finished = true
            case .pauseSpeech, .resumeSpeech, .stopSpeech: break
            }
        }
    }
    apply(player.handle(.start))
    for byte in keys.suffix(64) where !finished {
        switch byte % 6 {
        case 0: apply(player.handle(.pauseKey))
        case 1: apply(player.handle(.presetKey(Int(byte / 6) % 10)))
        case 2: apply(player.handle(.word(speech: speech, offset: Int(byte / 6))))
        case 3: apply(player.handle(.spoken(speech: speech - Int(byte / 6) % 2)))
        case 4: apply(player.handle(.waited(timer: timer)))
        default: if byte == 5 { apply(player.handle(.quitKey)) }
        }
    }
    // Speech ends, timers go off and the presenter goes on: it must come to its end.
    var steps = 0
    while !finished {
        steps += 1
        precondition(steps <= 4 * scenario.actions.count + 8, "playing does not end")
        apply(player.handle(.spoken(speech: speech)))
        apply(player.handle(.waited(timer: timer)))
        if player.isPaused || player.phase == .holding { apply(player.handle(.pauseKey)) }
    }
    precondition(player.phase == .finished)
}
