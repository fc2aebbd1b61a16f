import AudioSinks
import Logging
import Playback
import SSML

extension Synthesizer {
    /// Synthesises one segment's `markup` with libespeak-ng and writes its samples, each mark and
    /// word reported before the samples it stands before. Above libespeak-ng's plain top speed the
    /// samples are compressed by Utter's own libsonic stream and the events placed where they are
    /// heard after it. With `trimsLeadingZeros`, the engine's leading digital silence is dropped.
    /// `pending` events (the segment's leading marks) go out with its first samples.
    func synthesizeSegment(
        _ markup: String, of job: SynthesisJob, engine: EspeakEngine, pauseAtEnd: Bool, trimsLeadingZeros: Bool,
        placer: inout MarkPlacer, pending: inout [SynthesisEvent], writer: inout JobWriter
    ) {
        // libespeak-ng 1.51 leaks about 1.3 KB when a synthesis is aborted in its last clause
        // (reproduced in C; a storm of paused messages grew by 450 bytes a message). A short
        // segment is therefore run to its end, its samples dropped: that costs a few
        // milliseconds of CPU. Only a long one is aborted. (Closing the clause with <s>
        // also avoids the leak but delays the first audible sample by 39 ms: measured.)
        let finishesWhenCancelled = markup.utf8.count <= Self.abortableSegmentBytes
        let compression = engineCompression(for: job, sampleRate: engine.sampleRate)
        // The closure below outlives no call, but cannot capture inout parameters.
        var segmentPlacer = placer
        var events = pending
        var output = writer
        defer {
            placer = segmentPlacer
            pending = events
            writer = output
        }
        if let compression {
            segmentPlacer.speed = compression.speed
            report(events)
            events.removeAll()
        }
        // libespeak-ng starts every utterance with 12 ms of exact zeros. At the start of a
        // message they only delay the first sound the user hears, and where a sentence goes
        // on in another voice they are a gap inside it, so up to that much digital silence
        // is dropped there (an SSML break is longer and stays).
        var trimmed = 0
        var trimming = trimsLeadingZeros
        let isCancelled = { self.isCancelled(job.id) }
        engine.synthesize(ssml: markup, pauseAtEnd: pauseAtEnd, reportsWords: job.reportsWords) {
            chunk, engineEvents in
            guard !isCancelled() else { return finishesWhenCancelled }
            var samples = chunk
            if trimming {
                let zeros = min(
                    samples.firstIndex { $0 != 0 } ?? samples.count, Self.trimmableLeadingSilence - trimmed)
                samples = UnsafeBufferPointer(rebasing: samples[zeros...])
                trimmed += zeros
                trimming = samples.isEmpty && trimmed < Self.trimmableLeadingSilence
            }
            guard let compression else {
                // Marks are reported before their samples are written, so playback limited to the
                // reported progress can never pass a mark nobody has seen yet (PAUSE relies on it).
                events += segmentPlacer.place(
                    engineEvents, chunkStart: self.sink.writePosition, count: samples.count, trimmed: trimmed)
                self.report(events)
                events.removeAll(keepingCapacity: true)
                return output.write(samples, isCancelled: isCancelled) || finishesWhenCancelled
            }
            let heardStart = compression.heardOffset(compression.fed)
            let heardEnd = compression.heardOffset(compression.fed + samples.count)
            compression.hold(
                segmentPlacer.place(
                    engineEvents, chunkStart: segmentPlacer.base + UInt64(heardStart), count: heardEnd - heardStart,
                    trimmed: trimmed))
            return compression.write(
                samples, finishing: false, job: job.id, sink: self.sink, writer: &output, report: self.report,
                isCancelled: isCancelled) || finishesWhenCancelled
        }
        guard let compression, !isCancelled() else { return }
        _ = compression.write(
            UnsafeBufferPointer(start: nil, count: 0), finishing: true, job: job.id, sink: sink, writer: &output,
            report: report, isCancelled: isCancelled)
    }

    /// The stream that compresses the job's engine samples, or nil when libespeak-ng speaks them at
    /// their pace (or libsonic cannot make its stream: logged).
    private func engineCompression(for job: SynthesisJob, sampleRate: Int) -> EngineCompression? {
        let speed = job.parameters.compression
        guard speed > 1 else { return nil }
        guard let compression = EngineCompression(speed: speed, sampleRate: sampleRate) else {
            logger.error(
                "libsonic cannot change the speed (out of memory); espeak-ng speaks at \(EngineParameters.plainTopRate) words a minute"
            )
            return nil
        }
        return compression
    }
}
