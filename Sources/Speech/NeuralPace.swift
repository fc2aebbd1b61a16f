/// How fast each neural voice has spoken on this machine, kept by the synth thread, and whether a
/// key or character on it would be heard late enough that its espeak-ng voice should say it
/// (`NeuralEcho auto`): typing echo must stay instant on any voice.
struct NeuralPace {
    /// The audio of a key or character name, padding included, which a neural voice must compute
    /// before it is heard (one inference: a lone word is one piece).
    static let echoAudioSeconds = 0.5

    /// Model path → real-time factor (compute seconds per audio second), smoothed.
    private var factors: [String: Double] = [:]
    /// Models whose echo was handed to espeak-ng, logged once each.
    private var handedOver: Set<String> = []

    /// Notes a job of `model` that took `nanoseconds` to produce `samples` at `sampleRate`.
    mutating func record(model: String, nanoseconds: UInt64, samples: UInt64, sampleRate: Int) {
        guard samples > UInt64(sampleRate) / 20, sampleRate > 0 else { return }
        let factor = Double(nanoseconds) / 1e9 / (Double(samples) / Double(sampleRate))
        // The latest counts most: the machine's load changes, and the first run warms caches.
        factors[model] = factors[model].map { $0 * 0.5 + factor * 0.5 } ?? factor
    }

    /// The milliseconds before a key or character on `model` would be heard; nil until it has spoken.
    func echoMilliseconds(model: String) -> Double? {
        factors[model].map { $0 * Self.echoAudioSeconds * 1000 }
    }

    /// Whether an echo on `model` goes to espeak-ng under a budget of `milliseconds`, and, the
    /// first time it does for that model, why (for the log).
    mutating func handsOver(model: String, budget milliseconds: Int) -> (handsOver: Bool, why: String?) {
        guard let expected = echoMilliseconds(model: model) else {
            return (true, firstTime(model) ? "it has not spoken yet, so how soon it would be heard is not known" : nil)
        }
        guard expected > Double(milliseconds) else { return (false, nil) }
        let why = "it would be heard after about \(Int(expected.rounded())) ms (NeuralEchoMilliseconds \(milliseconds))"
        return (true, firstTime(model) ? why : nil)
    }

    private mutating func firstTime(_ model: String) -> Bool {
        handedOver.insert(model).inserted
    }
}
