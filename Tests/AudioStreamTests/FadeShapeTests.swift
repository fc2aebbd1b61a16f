import AudioStream
import Testing

/// The fade-out a STOP plays, made by `makeFade` from a steady level: its shape decides whether the
/// end of stopped speech is heard as a click.
@Suite struct FadeShapeTests {
    /// The fade of `frames` frames made from a steady level of 16,000: `fromHistory` frames already
    /// handed over (remembered), the rest still in the ring.
    static func fade(frames: Int, fromHistory: Int, inRing: Int) -> [Int16] {
        let level: Int16 = 16000
        let ring = SampleRing(capacity: 1024)
        let steady = [Int16](repeating: level, count: 512)
        _ = steady.withUnsafeBufferPointer { ring.write($0) }
        let storage = UnsafeMutablePointer<Int16>.allocate(capacity: 256)
        defer { storage.deallocate() }
        storage.initialize(repeating: 0, count: 256)
        let history = HistoryRing(samples: storage, frames: 256)
        var remembered = [Int16](repeating: level, count: fromHistory)
        remembered.withUnsafeMutableBufferPointer { history.remember($0.baseAddress!, count: fromHistory, from: 0) }
        let handedOver = UInt64(fromHistory)
        ring.consume(upTo: handedOver)
        var out = [Int16](repeating: 0, count: frames)
        let count = out.withUnsafeMutableBufferPointer {
            makeFade(
                into: $0.baseAddress!, frames: frames, from: 0, handedOver: handedOver,
                ringEnd: handedOver + UInt64(inRing), history: history, ring: ring)
        }
        return Array(out.prefix(count))
    }

    @Test(arguments: [(88, 0, 88), (88, 30, 200), (192, 0, 500), (88, 0, 20), (88, 5, 3)])
    func `a STOP's fade leaves the sound flat, falls smoothly and ends flat in silence`(
        frames: Int, fromHistory: Int, inRing: Int
    ) {
        let fade = Self.fade(frames: frames, fromHistory: fromHistory, inRing: inRing)
        // As long as what is there to fade allows: a short ring makes a shorter, complete fade.
        #expect(fade.count == min(frames, fromHistory + inRing))
        let gains = fade.map { Double($0) / 16000 }
        #expect(gains.first! > 0.97 || fade.count < 20, "starts near the sound's level: \(gains.first!)")
        #expect(zip(gains, gains.dropFirst()).allSatisfy { $0 >= $1 }, "falls without rising again: \(gains)")
        // The last quarter keeps at most 0.16 of the level (a straight line keeps 0.25), and the
        // last frame hardly anything: silence follows without a step.
        let lastQuarter = gains.suffix(max(fade.count / 4, 1))
        #expect(lastQuarter.max()! <= 0.16 + 1.0 / Double(fade.count), "\(lastQuarter)")
        #expect(gains.last! <= 3.0 / Double(fade.count * fade.count) + 0.0001, "\(gains.last!)")
        // No corner: the steepest step is a smoothstep's 1.5 / n, not more.
        let steepest = zip(gains, gains.dropFirst()).map { $0 - $1 }.max() ?? 0
        #expect(steepest <= 1.5 / Double(fade.count) + 0.001, "steepest step \(steepest)")
    }
}
