import AudioSinks
import Playback
import SSML

/// A synthesis engine as the segment loop drives it (``Synthesizer``'s `speak`): the text of one
/// segment in, samples and the marks and words heard in them out through a ``SegmentOutput``,
/// each event reported before the samples it sits in are written, so that playback limited to
/// what was reported never passes a mark nobody has seen.
///
/// Everything around the text (breaks, `<audio>` clips, marks between segments, language
/// switches to another voice, the silences a job asks for, its start and end) is the loop's;
/// an engine is one file of what is its own. An engine that runs a model ends its inference
/// when the job is cancelled through ``NeuralRunSlot``, which ``Synthesizer/cancel(through:)``
/// terminates.
protocol SynthesisEngine {
    /// Speaks the text of `segment` (its `markup`) into `output`. `leadingMarks` were reached
    /// before its first word and are not reported yet: the engine reports them where that word
    /// is heard. `pausesAtEnd`: a sentence's pause ends it (more speech follows). Every mark of
    /// the segment has been reported when it returns; false once the job is cancelled.
    func speak(
        _ segment: SpeechSegment, markup: String, leadingMarks: [SynthesisEvent], pausesAtEnd: Bool,
        into output: SegmentOutput
    ) -> Bool
}

/// Where an engine's samples and events go while one job is spoken: the synth thread's sink at
/// the job's gain, and its reports. Used on the synth thread only.
final class SegmentOutput {
    let job: SynthesisJob
    /// The output's sample rate, which every engine's samples are converted to.
    let sampleRate: Int
    /// Where the message's sound starts: silence an engine begins with there only delays it.
    var messageStart: UInt64
    private unowned let synthesizer: Synthesizer
    private var writer: JobWriter

    init(job: SynthesisJob, synthesizer: Synthesizer, sampleRate: Int, messageStart: UInt64) {
        self.job = job
        self.synthesizer = synthesizer
        self.sampleRate = sampleRate
        self.messageStart = messageStart
        writer = JobWriter(job: job, sink: synthesizer.sink)
    }

    /// Where the next sample written will be.
    var position: UInt64 { synthesizer.sink.writePosition }

    var isCancelled: Bool { synthesizer.isCancelled(job.id) }

    /// Hands `events` to the control thread (through the job's word aligner).
    func report(_ events: [SynthesisEvent]) {
        synthesizer.report(events)
    }

    /// Writes `samples` at the job's gain; false once the job is cancelled.
    func write(_ samples: UnsafeBufferPointer<Int16>) -> Bool {
        writer.write(samples, isCancelled: { self.isCancelled })
    }

    func write(_ samples: [Int16]) -> Bool {
        samples.withUnsafeBufferPointer { write($0) }
    }

    /// Writes `milliseconds` of silence, its progress reported first; false once cancelled.
    func writeSilence(_ milliseconds: Int) -> Bool {
        guard milliseconds > 0 else { return true }
        let silence = [Int16](repeating: 0, count: milliseconds * sampleRate / 1000)
        report([.progress(job: job.id, position: position + UInt64(silence.count))])
        _ = write(silence)
        return !isCancelled
    }
}
