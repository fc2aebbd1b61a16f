import Samples
import Testing

/// The sample arithmetic every engine's samples go through, on known signals.
@Suite struct SampleEditTests {
    @Test func `a gain change ramps over the cut fade, then holds, and clips at full scale`() {
        var samples = [Int16](repeating: 10000, count: 300)
        SampleEdit.amplify(&samples, gains: [(0, 1), (100, 0.5), (200, 4)])
        #expect(samples[0..<100].allSatisfy { $0 == 10000 })
        #expect(samples[100] == 10000 && samples[100 + SampleEdit.cutFade / 2] == 7500)
        #expect(samples[(100 + SampleEdit.cutFade)..<200].allSatisfy { $0 == 5000 })
        #expect(samples[(200 + SampleEdit.cutFade)...].allSatisfy { $0 == 32767 }, "4 × 10,000 clips")
        var same = [Int16](repeating: -1234, count: 10)
        SampleEdit.amplify(&same, gains: [(0, 1), (5, 1.0004)])
        #expect(same == [Int16](repeating: -1234, count: 10), "a gain of 1 leaves the samples as they are")
        var odd = [Int16](repeating: 100, count: 200)
        SampleEdit.amplify(&odd, gains: [(0, .nan), (100, -3)])
        #expect(odd[99] == 100 && odd.last == 0, "not finite counts as 1, negative as 0")
    }

    @Test func `a cut is faded in and out linearly, short pieces over half their length`() {
        var samples = [Int16](repeating: 6400, count: 1000)
        SampleEdit.fadeCut(&samples, in: true, out: true)
        #expect(samples[0] == 0 && samples[32] == 3200 && samples[64] == 6400)
        #expect(samples[999] == 0 && samples[999 - 32] == 3200 && samples[999 - 64] == 6400)
        var onlyOut = [Int16](repeating: 6400, count: 1000)
        SampleEdit.fadeCut(&onlyOut, in: false, out: true)
        #expect(onlyOut[0] == 6400 && onlyOut[999] == 0)
        var short = [Int16](repeating: 1000, count: 10)
        SampleEdit.fadeCut(&short, in: true, out: true)
        #expect(short == [0, 200, 400, 600, 800, 800, 600, 400, 200, 0])
        var one: [Int16] = [5]
        SampleEdit.fadeCut(&one, in: true, out: true)
        #expect(one == [5])
    }

    @Test func `float samples are scaled to full range by their peak, never from near silence`() {
        #expect(SampleEdit.fullScalePCM([0.5, -0.25, 0]) == [32767, -16384, 0])
        #expect(SampleEdit.fullScalePCM([0.001]) == [3277], "a peak under 0.01 counts as 0.01")
        #expect(SampleEdit.fullScalePCM([.nan, .infinity, 0.5]) == [0, 0, 32767])
        #expect(SampleEdit.fullScalePCM([]) == [])
    }

    @Test func `leading zeros are dropped across chunks up to the limit, and only at the start`() {
        var trim = LeadingSilenceTrim(limit: 5, trims: true)
        let first: [Int16] = [0, 0, 0]
        let second: [Int16] = [0, 7, 0]
        let third: [Int16] = [0, 9]
        first.withUnsafeBufferPointer { #expect(trim.keep($0).isEmpty) }
        second.withUnsafeBufferPointer { #expect(Array(trim.keep($0)) == [7, 0]) }
        #expect(trim.trimmed == 4 && !trim.isTrimming)
        third.withUnsafeBufferPointer { #expect(Array(trim.keep($0)) == [0, 9], "zeros after a sound stay") }
        var limited = LeadingSilenceTrim(limit: 2, trims: true)
        first.withUnsafeBufferPointer { #expect(Array(limited.keep($0)) == [0]) }
        #expect(limited.trimmed == 2 && !limited.isTrimming)
        var off = LeadingSilenceTrim(limit: 331, trims: false)
        first.withUnsafeBufferPointer { #expect(Array(off.keep($0)) == [0, 0, 0]) }
    }
}
