import AudioSinks
import Logging
import Playback
import SSML
import SoundFiles

extension Synthesizer {
    /// Speaks `segments` of `job`: the one loop that drives every engine. `engine` speaks the
    /// text; text switched to another language goes to `espeak`, that language's espeak-ng voice;
    /// breaks, clips and marks between segments are played and reported here.
    func speak(
        _ job: SynthesisJob, segments: some Sequence<SpeechSegment>, from jobStart: UInt64,
        engine: some SynthesisEngine, espeak: EspeakSegments, clips: inout ClipCache
    ) {
        let output = SegmentOutput(job: job, synthesizer: self, sampleRate: espeak.sampleRate, messageStart: jobStart)
        guard output.writeSilence(job.leadingSilence) else { return }
        if job.leadingSilence > 0 { output.messageStart = output.position }
        // The start comes first so that marks before the first word are heard with it.
        report([.audioStart(job: job.id, position: output.messageStart)])
        // Made one at a time as they are spoken (a long message's first is spoken while the rest
        // is unread). Whether a segment ends with a pause depends on the next, which is made
        // before it is spoken, unless the segment was cut from a long text: then the next is
        // more of that text, made once this one is spoken (its reading, a Japanese text's or a
        // neural voice's phonemes, would only delay the first sound).
        var remaining = segments.makeIterator()
        var count = 0
        func take() -> SpeechSegment? {
            let segment = remaining.next()
            if segment == nil {
                logger.debug("message \(job.id): its text read to the end, \(count) segments")
            } else {
                count += 1
            }
            return segment
        }
        var current = take()
        while let segment = current {
            let next = segment.textGoesOn ? nil : take()
            // A sentence pause before the next segment, unless a sound follows at once or the
            // sentence goes on in another voice.
            let pausesAtEnd = segment.pausesAtEnd && (segment.textGoesOn || (next != nil && next?.sound == nil))
            let spoken = speak(
                segment, pausesAtEnd: pausesAtEnd, engine: segment.language == nil ? engine : nil, espeak: espeak,
                output: output, clips: &clips)
            guard spoken, !output.isCancelled else { return }
            current = segment.textGoesOn ? take() : next
        }
        guard output.writeSilence(job.trailingSilence) else { return }
        report([.end(job: job.id, position: sink.writePosition)])
    }

    /// Speaks one segment: its break, then its clip or its text (by `engine`, or by `espeak`
    /// when nil), its marks reported on the way. False once the job is cancelled.
    private func speak(
        _ segment: SpeechSegment, pausesAtEnd: Bool, engine: (some SynthesisEngine)?, espeak: EspeakSegments,
        output: SegmentOutput, clips: inout ClipCache
    ) -> Bool {
        let job = output.job
        var pending = segment.leadingMarks.map { SynthesisEvent.mark(job: job.id, name: $0, position: output.position) }
        if segment.leadingSilence > 0 {
            // Marks before the break are reported at its start: they were reached before it.
            report(pending)
            pending.removeAll()
            guard output.writeSilence(segment.leadingSilence) else { return false }
        }
        if let source = segment.sound,
            let clip = sound(
                source, words: segment.soundWords ?? 0, of: job, clips: &clips, sampleRate: output.sampleRate,
                hasFallback: segment.markup != nil)
        {
            pending += clipWords(segment, of: job, count: clip.samples.count)
            pending.append(.progress(job: job.id, position: output.position + UInt64(clip.samples.count)))
            report(pending)
            guard output.write(clip.samples) else { return false }
            // The marks of the fallback text it stands for, when it ends: none is ever lost.
            report(segment.inlineMarks.map { .mark(job: job.id, name: $0, position: output.position) })
            return true
        }
        guard let markup = segment.markup else {
            report(pending + segment.inlineMarks.map { .mark(job: job.id, name: $0, position: output.position) })
            return true
        }
        if let engine {
            return engine.speak(segment, markup: markup, leadingMarks: pending, pausesAtEnd: pausesAtEnd, into: output)
        }
        return espeak.speak(segment, markup: markup, leadingMarks: pending, pausesAtEnd: pausesAtEnd, into: output)
    }
}
