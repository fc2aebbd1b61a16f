public import SSML

/// Places the marks and words of one segment at sample positions, from the engine's callbacks.
///
/// The engine reports marks and words at sample offsets from the start of its call; the synth
/// thread writes the call's samples from `base` on, after dropping the `trimmed` leading zeros.
/// A position is never before an earlier mark's, nor past the end of the chunk that carries it
/// (events are reported before their samples are written, so playback limited to the reported
/// progress cannot pass an event nobody has seen). Marks the engine skipped are reported with
/// the next one it reports, at its position: none is lost, all stay in order.
public struct MarkPlacer: Sendable {
    public let job: UInt64
    private let segment: SpeechSegment
    private let markup: [Unicode.Scalar]
    private let runs: [SpeechSegment.TextRun]
    /// Where the segment's first sample is written.
    public private(set) var base: UInt64
    /// The position of the last mark placed; later marks never come before it.
    public private(set) var lastMarkPosition: UInt64
    private var reported = 0
    private var lastWord: Range<Int>?

    /// A placer for `segment` of `job`, whose samples start at `base`; words are placed only with
    /// `placesWords` (they cost a pass over the markup).
    public init(job: UInt64, segment: SpeechSegment, base: UInt64, placesWords: Bool) {
        self.job = job
        self.segment = segment
        self.base = base
        self.lastMarkPosition = base
        self.runs = placesWords ? segment.textRuns : []
        self.markup = placesWords && !segment.textRuns.isEmpty ? Array((segment.markup ?? "").unicodeScalars) : []
    }

    /// The marks before the segment's first word, at `base`.
    public func leadingMarks() -> [SynthesisEvent] {
        segment.leadingMarks.map { .mark(job: job, name: $0, position: base) }
    }

    /// Moves the segment's start to `position` (after a leading silence was written).
    public mutating func rebase(to position: UInt64) {
        base = position
        lastMarkPosition = max(lastMarkPosition, position)
    }

    /// The events of one engine chunk whose samples will be written at `chunkStart` (`count`
    /// of them, after `trimmed` samples were dropped from the start of the call), ending with
    /// the progress up to the chunk's end.
    public mutating func place(
        _ events: [EngineEvent], chunkStart: UInt64, count: Int, trimmed: Int
    ) -> [SynthesisEvent] {
        let chunkEnd = chunkStart + UInt64(count)
        var placed: [SynthesisEvent] = []
        for event in events {
            switch event {
            case .mark(let name, let sample):
                guard let index = SpeechSegment.inlineMarkIndex(name), index < segment.inlineMarks.count,
                    index >= reported
                else { continue }
                let position = clamp(sample: sample, trimmed: trimmed, chunkEnd: chunkEnd)
                while reported <= index {
                    placed.append(.mark(job: job, name: segment.inlineMarks[reported], position: position))
                    reported += 1
                }
                lastMarkPosition = position
            case .word(let textPosition, let length, let sample):
                guard length > 0, let text = textRange(textPosition: textPosition, length: length),
                    text != lastWord
                else { continue }
                lastWord = text
                placed.append(.word(job: job, text: text, position: clamp(sample: sample, trimmed: trimmed, chunkEnd: chunkEnd)))
            }
        }
        placed.append(.progress(job: job, position: chunkEnd))
        return placed
    }

    /// The inline marks the engine never reported, at `end`, the position after the segment.
    public mutating func finish(at end: UInt64) -> [SynthesisEvent] {
        var placed: [SynthesisEvent] = []
        while reported < segment.inlineMarks.count {
            placed.append(.mark(job: job, name: segment.inlineMarks[reported], position: end))
            reported += 1
        }
        lastMarkPosition = end
        return placed
    }

    private func clamp(sample: Int, trimmed: Int, chunkEnd: UInt64) -> UInt64 {
        let offset = UInt64(max(0, sample - trimmed))
        return min(max(base + offset, lastMarkPosition), chunkEnd)
    }

    /// The text content range of the whole segment (for a sound, the phrase it says), if words are
    /// placed and it has text.
    public func textRange() -> Range<Int>? {
        guard let first = runs.first, let last = runs.last else { return nil }
        let lastLength = last.textLength ?? decodedCount(from: last.markupOffset, to: last.markupOffset + last.markupLength)
        let end = last.textOffset + lastLength
        return end > first.textOffset ? first.textOffset..<end : nil
    }

    /// The text content range of the word at 1-based markup scalar `textPosition`, if it lies in
    /// a run of text (a word libespeak-ng made from markup, such as a `say-as`, has none).
    private func textRange(textPosition: Int, length: Int) -> Range<Int>? {
        let start = textPosition - 1
        guard let run = runs.last(where: { $0.markupOffset <= start }),
            start < run.markupOffset + run.markupLength
        else { return nil }
        if let length = run.textLength { return run.textOffset..<(run.textOffset + length) }
        let runEnd = run.markupOffset + run.markupLength
        let first = decodedCount(from: run.markupOffset, to: start)
        let last = decodedCount(from: run.markupOffset, to: min(start + length, runEnd))
        guard last > first else { return nil }
        return (run.textOffset + first)..<(run.textOffset + last)
    }

    /// How many text scalars the escaped markup from `start` to `end` stands for (an entity is
    /// one, counted once `end` is past its `;`).
    private func decodedCount(from start: Int, to end: Int) -> Int {
        var count = 0
        var index = start
        while index < end && index < markup.count {
            if markup[index] == "&", let semicolon = markup[index..<min(markup.count, index + 10)].firstIndex(of: ";") {
                // The engine puts a word that is an entity at its `;`: it starts at the entity.
                guard semicolon < end else { break }
                index = semicolon + 1
            } else {
                index += 1
            }
            count += 1
        }
        return count
    }
}
