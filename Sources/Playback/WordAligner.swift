public import SSML

/// Turns an engine's words into the text's words (``SSML/TextWords``), as the synth thread
/// reports them for one job.
///
/// An engine word is where the engine's pronunciation starts a word: several may fall inside one
/// word of the text (`It` `s`, `9` `15`), and a word of the text may have none (a symbol it
/// skipped, an initialism it spelt under the first letter's event, `<sub>` content). Every word
/// of the text is reported exactly once, in order: at the first engine word inside it, or, when
/// it has none, just before the next engine word after it (it was passed over by then), or at
/// the job's end. In a run of a script written without spaces the engine's words (the reading
/// front end's morphemes) are the words; what of the run none of them covers is reported as a
/// word of its own, so none of it is lost either. Marks, progress and ends pass unchanged.
public struct WordAligner: Sendable {
    private let units: [TextWords.Unit]
    /// The first unit not yet reported whole.
    private var next = 0
    /// Everything before this scalar offset has been reported (inside `units[next]` when it is
    /// an unspaced run reported in part).
    private var cursor = 0

    /// An aligner for a job whose text content is `text`.
    public init(text: String) {
        self.init(units: TextWords.units(of: text))
    }

    public init(units: [TextWords.Unit]) {
        self.units = units
    }

    /// Whether every word of the text has been reported.
    public var isFinished: Bool { next == units.count }

    /// `events` with each engine word replaced by the text's words it starts (none when it falls
    /// inside a word already reported); an end is preceded by the words not reported yet.
    public mutating func align(_ events: [SynthesisEvent]) -> [SynthesisEvent] {
        guard events.contains(where: Self.needsAligning) else { return events }
        var aligned: [SynthesisEvent] = []
        aligned.reserveCapacity(events.count + 4)
        for event in events {
            switch event {
            case .word(let job, let text, let position):
                words(startedBy: text, job: job, at: position, into: &aligned)
            case .end(let job, let position):
                rest(job: job, at: position, into: &aligned)
                aligned.append(event)
            default:
                aligned.append(event)
            }
        }
        return aligned
    }

    /// Engine words for the text's words in `text` (a clip's phrase), spread over the `count`
    /// samples its sound takes from `position`, each at the share of the phrase's characters
    /// before it: a clip says its words one after another and has no timing of its own.
    public func spread(_ text: Range<Int>, over count: Int, job: UInt64, from position: UInt64) -> [SynthesisEvent] {
        var end = firstUnit(endingAfter: text.lowerBound)
        let begin = end
        while end < units.count, units[end].range.lowerBound < text.upperBound { end += 1 }
        let inside = units[begin..<end]
        guard let first = inside.first, let last = inside.last else { return [] }
        let span = Double(max(1, last.range.upperBound - first.range.lowerBound))
        return inside.map { unit in
            let share = Double(unit.range.lowerBound - first.range.lowerBound) / span
            let range = max(unit.range.lowerBound, text.lowerBound)..<min(unit.range.upperBound, text.upperBound)
            return .word(job: job, text: range, position: position + UInt64(share * Double(max(0, count))))
        }
    }

    private static func needsAligning(_ event: SynthesisEvent) -> Bool {
        switch event {
        case .word, .end: true
        default: false
        }
    }

    /// Reports the words an engine word over `text` starts, after those passed over before it.
    private mutating func words(
        startedBy text: Range<Int>, job: UInt64, at position: UInt64, into aligned: inout [SynthesisEvent]
    ) {
        guard !text.isEmpty, text.upperBound > cursor else { return }
        let from = max(text.lowerBound, cursor)
        let low = firstUnit(endingAfter: from)
        guard low < units.count, max(units[low].range.lowerBound, cursor) < text.upperBound else { return }
        // Passed over: the units before, and the part of an unspaced run before the engine's word.
        while next < low { report(unitThrough: units[next].range.upperBound, job: job, at: position, into: &aligned) }
        if units[next].isUnspaced, from > max(units[next].range.lowerBound, cursor) {
            report(unitThrough: from, job: job, at: position, into: &aligned)
        }
        // Started: every unit the engine's word reaches into; an unspaced run up to its end.
        while next < units.count, max(units[next].range.lowerBound, cursor) < text.upperBound {
            let unit = units[next]
            report(unitThrough: unit.isUnspaced ? min(text.upperBound, unit.range.upperBound) : unit.range.upperBound,
                job: job, at: position, into: &aligned)
            if unit.isUnspaced && cursor < unit.range.upperBound { break }
        }
    }

    /// The first unit from `next` on that ends after `offset`: units are in order, none overlapping.
    private func firstUnit(endingAfter offset: Int) -> Int {
        var low = next
        var high = units.count
        while low < high {
            let middle = (low + high) / 2
            if units[middle].range.upperBound <= offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Reports every word not reported yet, at `position`.
    private mutating func rest(job: UInt64, at position: UInt64, into aligned: inout [SynthesisEvent]) {
        while next < units.count { report(unitThrough: units[next].range.upperBound, job: job, at: position, into: &aligned) }
    }

    /// Reports `units[next]` from the cursor up to `end`, moving on to the next unit at its end.
    private mutating func report(
        unitThrough end: Int, job: UInt64, at position: UInt64, into aligned: inout [SynthesisEvent]
    ) {
        let unit = units[next]
        let start = max(unit.range.lowerBound, cursor)
        if end > start { aligned.append(.word(job: job, text: start..<end, position: position)) }
        cursor = max(cursor, end)
        if cursor >= unit.range.upperBound { next += 1 }
    }
}
