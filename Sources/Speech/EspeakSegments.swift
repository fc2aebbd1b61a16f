import Logging
import Playback
import SSML
import Samples

/// libespeak-ng as a segment engine: a segment's SSML in one call, in its language's voice, the
/// marks and words placed where its callbacks report them.
struct EspeakSegments: SynthesisEngine {
    let engine: EspeakEngine
    let logger: Logger

    var sampleRate: Int { engine.sampleRate }

    /// Segments longer than this are aborted when cancelled; shorter ones run to their end.
    static let abortableSegmentBytes = 4096
    /// At most this many zero samples are dropped from the start of a message (15 ms at 22,050 Hz).
    static let trimmableLeadingSilence = 331

    func speak(
        _ segment: SpeechSegment, markup: String, leadingMarks: [SynthesisEvent], pausesAtEnd: Bool,
        into output: SegmentOutput
    ) -> Bool {
        let job = output.job
        selectVoice(for: segment, of: job)
        engine.apply(job.parameters)
        // libespeak-ng 1.51 leaks about 1.3 KB when a synthesis is aborted in its last clause
        // (reproduced in C; a storm of paused messages grew by 450 bytes a message). A short
        // segment is therefore run to its end, its samples dropped: that costs a few
        // milliseconds of CPU. Only a long one is aborted. (Closing the clause with <s> also
        // avoids the leak but delays the first audible sample by 39 ms: measured.)
        let finishesWhenCancelled = markup.utf8.count <= Self.abortableSegmentBytes
        var placer = MarkPlacer(job: job.id, segment: segment, base: output.position, placesWords: job.reportsWords)
        var pending = leadingMarks
        // libespeak-ng starts every utterance with 12 ms of exact zeros. At the start of a
        // message they only delay the first sound the user hears, and where a sentence goes on
        // in another voice they are a gap inside it, so up to that much digital silence is
        // dropped there (an SSML break is longer and stays).
        var trim = LeadingSilenceTrim(
            limit: Self.trimmableLeadingSilence,
            trims: output.position == output.messageStart || segment.continuesSentence)
        engine.synthesize(ssml: markup, pauseAtEnd: pausesAtEnd, reportsWords: job.reportsWords) { chunk, events in
            guard !output.isCancelled else { return finishesWhenCancelled }
            let samples = trim.keep(chunk)
            // Reported before the samples are written, so playback limited to the reported
            // progress can never pass a mark nobody has seen yet (PAUSE relies on it).
            pending += placer.place(events, chunkStart: output.position, count: samples.count, trimmed: trim.trimmed)
            output.report(pending)
            pending.removeAll(keepingCapacity: true)
            return output.write(samples) || finishesWhenCancelled
        }
        guard !output.isCancelled else { return false }
        output.report(pending + placer.finish(at: output.position))
        return true
    }

    /// Sets the voice of the segment's language (another voice's for switched text), else the job's.
    func selectVoice(for segment: SpeechSegment, of job: SynthesisJob) {
        let name = segment.language.flatMap { job.languageVoices[$0.lowercased()] } ?? job.engineVoice
        do {
            try engine.setVoice(name, variant: job.variant)
        } catch {
            logger.warning("\(error); keeping the previous voice")
        }
    }
}
