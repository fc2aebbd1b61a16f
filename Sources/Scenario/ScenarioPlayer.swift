/// What playing a scenario does next, given what happened: the player's logic without its I/O.
///
/// The caller feeds it events (speech ended, a timer went off, a key) and performs the effects it
/// returns, in order. Speeches and timers carry numbers, so that the end of one that was stopped
/// or replaced is recognised as stale and changes nothing.
public struct ScenarioPlayer: Sendable {
    public enum Event: Sendable, Equatable {
        case start
        /// A word of that speech started, at this UTF-8 offset in its text.
        case word(speech: Int, offset: Int)
        /// That speech ended, heard to its end or stopped.
        case spoken(speech: Int)
        /// That timer went off.
        case waited(timer: Int)
        /// Space: pause, or go on.
        case pauseKey
        /// Keys 1 to 9.
        case presetKey(Int)
        case quitKey
    }

    public enum Effect: Sendable, Equatable {
        /// Speak this, reporting its events as speech `number`.
        case speak(Passage, number: Int)
        /// Report `.waited(timer: number)` after this many seconds.
        case startTimer(seconds: Double, number: Int)
        case pauseSpeech
        case resumeSpeech
        case stopSpeech
        /// Show the slide at this page index (0 for the first).
        case showSlide(Int)
        /// Playing is over: by the end of the scenario, or by the quit key.
        case finish
    }

    public enum Phase: Sendable, Equatable {
        case ready
        case speaking
        case waiting
        /// At a pause action, until the presenter goes on.
        case holding
        case finished
    }

    public let scenario: Scenario
    /// The current action, 0-based; -1 before the start.
    public private(set) var actionIndex = -1
    /// The page index of the slide shown, 0 for the first.
    public private(set) var slideIndex = 0
    public private(set) var phase = Phase.ready
    /// Paused by the presenter during a speech or a wait.
    public private(set) var isPaused = false
    /// The preset being spoken (1-based).
    public private(set) var preset: Int?
    /// Ended by the quit key rather than at the end of the scenario.
    public private(set) var isStopped = false

    private var speechNumber = 0
    private var timerNumber = 0
    /// The current action's speech or wait is over, but the presenter paused before it ended.
    private var isActionDone = false
    /// The current action's speech was stopped for a preset; going on speaks the rest of it.
    private var isInterrupted = false
    /// Where in the current action's text the speech in progress started, and its last word started.
    private var speechStart = 0
    private var lastWord = 0

    public init(scenario: Scenario) {
        self.scenario = scenario
    }

    /// Whether the current speech is the action's (not a preset's), still under way.
    private var isSpeakingAction: Bool { phase == .speaking && !isActionDone && !isInterrupted }

    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .start:
            return phase == .ready ? advance() : []
        case .word(let speech, let offset):
            if speech == speechNumber, preset == nil, let text = currentPassage?.text,
                (0..<text.utf8.count - speechStart).contains(offset)
            {
                lastWord = speechStart + offset
            }
            return []
        case .spoken(let speech):
            guard speech == speechNumber else { return [] }
            if preset != nil {
                preset = nil
                return []
            }
            guard phase == .speaking else { return [] }
            return ended()
        case .waited(let timer):
            guard timer == timerNumber, phase == .waiting else { return [] }
            return ended()
        case .pauseKey:
            return pauseKey()
        case .presetKey(let number):
            guard isPaused || phase == .holding, scenario.presets.indices.contains(number - 1) else { return [] }
            var effects: [Effect] = []
            if preset != nil {
                effects.append(.stopSpeech)
            } else if isSpeakingAction {
                // A paused speech holds the channel: what is queued behind it would wait for it.
                effects.append(.stopSpeech)
                isInterrupted = true
            }
            preset = number
            speechNumber += 1
            return effects + [.speak(scenario.presets[number - 1], number: speechNumber)]
        case .quitKey:
            guard phase != .finished else { return [] }
            let speaking = preset != nil || isSpeakingAction
            phase = .finished
            isStopped = true
            return (speaking ? [.stopSpeech] : []) + [.finish]
        }
    }

    private mutating func ended() -> [Effect] {
        guard !isPaused else {
            isActionDone = true
            return []
        }
        return advance()
    }

    private mutating func pauseKey() -> [Effect] {
        switch phase {
        case .ready, .finished:
            return []
        case .holding:
            return stopPreset() + advance()
        case .speaking, .waiting:
            guard isPaused else {
                isPaused = true
                return isSpeakingAction ? [.pauseSpeech] : []
            }
            isPaused = false
            let effects = stopPreset()
            if isActionDone { return effects + advance() }
            guard phase == .speaking else { return effects }
            guard isInterrupted, case .speak(let speech) = scenario.actions[actionIndex] else {
                return effects + [.resumeSpeech]
            }
            isInterrupted = false
            return effects + speak(speech, from: lastWord)
        }
    }

    private mutating func stopPreset() -> [Effect] {
        guard preset != nil else { return [] }
        preset = nil
        speechNumber += 1
        return [.stopSpeech]
    }

    /// Starts the next action, and the ones after it that take no time.
    private mutating func advance() -> [Effect] {
        var effects: [Effect] = []
        isActionDone = false
        isInterrupted = false
        while true {
            actionIndex += 1
            guard actionIndex < scenario.actions.count else {
                actionIndex = scenario.actions.count - 1
                phase = .finished
                return effects + [.finish]
            }
            switch scenario.actions[actionIndex] {
            case .speak(let speech):
                phase = .speaking
                return effects + speak(speech, from: 0)
            case .wait(let seconds):
                phase = .waiting
                timerNumber += 1
                return effects + [.startTimer(seconds: seconds, number: timerNumber)]
            case .pause:
                phase = .holding
                return effects
            case .changeSlide(let change):
                slideIndex = change.index(after: slideIndex)
                effects.append(.showSlide(slideIndex))
            }
        }
    }

    /// Speaks `speech` from a UTF-8 offset on: from a word where it was cut off, without its
    /// leading silence then.
    private mutating func speak(_ speech: Passage, from offset: Int) -> [Effect] {
        var rest = speech
        var offset = offset
        if offset > 0 {
            // Offsets come from word events, so they fall on a character; rounded down if not.
            let text = speech.text
            let start = text[..<text.utf8.index(text.utf8.startIndex, offsetBy: offset)].endIndex
            let tail = text[start...]
            if tail.contains(where: { !$0.isWhitespace }) {
                rest.text = String(tail)
                rest.prosody.preDelay = 0
                offset = text.utf8.distance(from: text.startIndex, to: start)
            } else {
                offset = 0
            }
        }
        speechStart = offset
        lastWord = offset
        speechNumber += 1
        return [.speak(rest, number: speechNumber)]
    }

    /// The current speech: the action's, or the preset's while one is spoken.
    public var currentPassage: Passage? {
        if let preset { return scenario.presets[preset - 1] }
        guard phase == .speaking, case .speak(let speech) = scenario.actions[actionIndex] else { return nil }
        return speech
    }

    /// One line for the presenter: `action 3 of 12 · slide 2 (index 1) · paused`: slides counted
    /// from 1 as a viewer shows them, with the 0-based index the scenario's `page` uses.
    public var status: String {
        let count = scenario.actions.count
        let state: String
        switch phase {
        case .ready: state = "ready"
        case .finished: state = isStopped ? "stopped" : "finished"
        case .holding: state = preset.map { "preset \($0)" } ?? "paused"
        case .speaking, .waiting:
            if let preset {
                state = "preset \(preset)"
            } else if isPaused {
                state = "paused"
            } else {
                state = phase == .speaking ? "speaking" : "waiting"
            }
        }
        return "action \(max(0, actionIndex + 1)) of \(count) · slide \(slideIndex + 1) (index \(slideIndex)) · \(state)"
    }
}
