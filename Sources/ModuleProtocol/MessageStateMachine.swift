/// The life of one message, from `200 OK SPEAKING` to its terminal event, as a pure value.
///
/// The 0.11.4 server has no recovery from a broken event sequence, so the rules live here and
/// nowhere else: no event before the message is accepted, `701` before any `700` or `702`,
/// exactly one terminal event and nothing after it, STOP and PAUSE while idle ignored. Inputs name
/// the message they are about; inputs about any other message are ignored, so a late report from
/// another thread cannot leak into the next message.
public struct MessageStateMachine: Equatable, Sendable {
    /// Why playback is being halted.
    public enum HaltReason: Equatable, Sendable {
        case stop
        case pause
    }

    /// What the caller must do, in order.
    public enum Action: Equatable, Sendable {
        case send(Event)
        /// Stop audio now; report `playbackHalted` when it is silent.
        case haltPlayback(HaltReason)
        /// A PAUSE is pending: playback may be limited to the next `__spd_` mark.
        case pauseRequested
    }

    struct Speaking: Equatable, Sendable {
        var message: UInt64
        var hasBegun = false
        var isPausePending = false
        var halting: HaltReason?
    }

    private var speaking: Speaking?

    public init() {}

    /// The message being spoken, if any.
    public var currentMessage: UInt64? { speaking?.message }

    /// True when a PAUSE waits for the next `__spd_` mark or the end of the text.
    public var isPausePending: Bool { speaking?.isPausePending ?? false }

    /// True when playback is being halted and the terminal event waits for silence.
    public var isHalting: Bool { speaking?.halting != nil }

    /// Records that `200 OK SPEAKING` was sent for `message`.
    public mutating func accept(_ message: UInt64) {
        precondition(speaking == nil, "a message was accepted while another one is still speaking")
        speaking = Speaking(message: message)
    }

    /// Handles STOP: ignored while idle or already halting for STOP.
    public mutating func stop() -> [Action] {
        guard var current = speaking, current.halting != .stop else { return [] }
        let wasHalting = current.halting != nil
        current.halting = .stop
        speaking = current
        return wasHalting ? [] : [.haltPlayback(.stop)]
    }

    /// Handles PAUSE: playing goes on to the next `__spd_` mark; ignored while idle or halting.
    public mutating func pause() -> [Action] {
        guard var current = speaking, current.halting == nil, !current.isPausePending else { return [] }
        current.isPausePending = true
        speaking = current
        return [.pauseRequested]
    }

    /// The first sample of `message` was heard.
    public mutating func audioStarted(_ message: UInt64) -> [Action] {
        guard var current = speaking, current.message == message, current.halting == nil else { return [] }
        guard !current.hasBegun else { return [] }
        current.hasBegun = true
        speaking = current
        return [.send(.begin)]
    }

    /// The sample at mark `name` of `message` was heard.
    public mutating func markReached(_ name: String, in message: UInt64) -> [Action] {
        guard var current = speaking, current.message == message, current.halting == nil else { return [] }
        var actions: [Action] = []
        if !current.hasBegun {
            current.hasBegun = true
            actions.append(.send(.begin))
        }
        actions.append(.send(.indexMark(name)))
        if current.isPausePending && name.hasPrefix("__spd_") {
            current.halting = .pause
            actions.append(.haltPlayback(.pause))
        }
        speaking = current
        return actions
    }

    /// The last sample of `message` was heard.
    public mutating func audioFinished(_ message: UInt64) -> [Action] {
        guard let current = speaking, current.message == message, current.halting == nil else { return [] }
        speaking = nil
        // A PAUSE with no `__spd_` mark left plays to the end and then pauses (module-protocol.md §9).
        let terminal: Event = current.isPausePending ? .paused : .end
        return current.hasBegun ? [.send(terminal)] : [.send(.begin), .send(terminal)]
    }

    /// Playback of `message` is silent after a halt: sends the terminal event the halt was for.
    public mutating func playbackHalted(_ message: UInt64) -> [Action] {
        guard let current = speaking, current.message == message, let reason = current.halting else { return [] }
        speaking = nil
        switch reason {
        case .stop: return [.send(.stopped)]
        case .pause: return [.send(.paused)]
        }
    }

    /// Ends whatever is speaking at once, before QUIT or when stdin closes.
    public mutating func abandon() -> [Action] {
        guard let current = speaking else { return [] }
        speaking = nil
        return [.send(current.halting == .pause ? .paused : .stopped)]
    }
}
