import AudioSinks
import Playback
import SoundFiles

/// One segment of libespeak-ng's samples played faster than libespeak-ng speaks by itself
/// (``EngineParameters/compression``), through Utter's own libsonic stream.
///
/// The segment's marks and words are placed where they are heard after the compression and held
/// until the output that reaches them is written: each is reported just before the samples it
/// stands before, as the uncompressed path does, even though libsonic holds back some input.
final class EngineCompression {
    private var stream: SpeedStream
    private var held: [SynthesisEvent] = []
    /// The engine samples given to the stream so far.
    private(set) var fed = 0

    var speed: Double { stream.speed }

    /// nil when libsonic cannot make its stream (out of memory).
    init?(speed: Double, sampleRate: Int) {
        guard let stream = SpeedStream(speed: speed, sampleRate: sampleRate) else { return nil }
        self.stream = stream
    }

    /// Where engine sample `offset` (from the segment's first fed sample) is heard, from the
    /// segment's base.
    func heardOffset(_ offset: Int) -> Int {
        SpeedChange.position(offset, speed: stream.speed)
    }

    /// Keeps `events` (their progress left out: the output's own is reported) until their samples.
    func hold(_ events: [SynthesisEvent]) {
        held += events.filter { if case .progress = $0 { false } else { true } }
    }

    /// Feeds `samples` and writes the output ready so far (with `finishing`, all of it), each
    /// held event reported before it at the sample it is heard at; false once the write was
    /// cancelled.
    func write(
        _ samples: UnsafeBufferPointer<Int16>, finishing: Bool, job: UInt64, sink: any SampleSink,
        writer: inout JobWriter, report: ([SynthesisEvent]) -> Void, isCancelled: () -> Bool
    ) -> Bool {
        fed += samples.count
        let output = stream.process(samples, finishing: finishing)
        let start = sink.writePosition
        let end = start + UInt64(output.count)
        // Sonic's output wanders around input / speed by up to a pitch period: an event whose
        // samples were already written goes with the next ones, and at the end none is left out.
        let due = finishing ? held.count : held.prefix { $0.position < end }.count
        var released = held.prefix(due).map { $0.moved(to: min(max($0.position, start), end)) }
        held.removeFirst(due)
        guard !output.isEmpty || !released.isEmpty else { return true }
        released.append(.progress(job: job, position: end))
        report(released)
        return output.withUnsafeBufferPointer { writer.write($0, isCancelled: isCancelled) }
    }
}
