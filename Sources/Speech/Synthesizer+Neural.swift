import AudioSinks
import Logging
import OnnxRuntime
import Piper
import Playback
import SSML
import SoundFiles
import Voices

extension Synthesizer {
    /// Speaks `job` with its neural voice, sentence by sentence: each sentence is synthesised,
    /// its marks and words placed from the model's durations, and written before the next one is
    /// synthesised, so the first plays while the rest are made. False, with nothing written,
    /// when the voice cannot be loaded: the job is then its fallback espeak-ng voice's.
    func performNeural(
        _ job: SynthesisJob, voice: NeuralVoice, from jobStart: UInt64, engine: EspeakEngine,
        models: inout NeuralModels, clips: inout ClipCache
    ) -> Bool {
        let model: PiperModel
        let control: OnnxRunControl
        switch models.model(for: voice) {
        case .success(let loaded): (model, control) = loaded
        case .failure(let error):
            logger.error("neural voice unavailable, the message is spoken by \(job.engineVoice): \(error)")
            return false
        }
        let segments = job.segmenter.segments(of: job.ssml)
        var writer = JobWriter(job: job, sink: sink)
        let rate = engine.sampleRate
        guard writeSilence(job.leadingSilence, for: job, writer: &writer, sampleRate: rate) else { return true }
        let start = job.leadingSilence > 0 ? sink.writePosition : jobStart
        report([.audioStart(job: job.id, position: start)])
        // The model's own length scale over the range it speaks well; libsonic for the rest.
        let modelSpeed = min(max(job.speed, Self.neuralModelSpeeds.lowerBound), Self.neuralModelSpeeds.upperBound)
        let lengthScale = max(0.2, min(5, model.config.lengthScale / Float(modelSpeed)))
        let compression = job.speed / modelSpeed
        for segment in segments {
            var pending = segment.leadingMarks.map {
                SynthesisEvent.mark(job: job.id, name: $0, position: sink.writePosition)
            }
            if segment.leadingSilence > 0 {
                report(pending)
                pending.removeAll()
                guard writeSilence(segment.leadingSilence, for: job, writer: &writer, sampleRate: rate) else {
                    return true
                }
            }
            var reportedMarks = Set<Int>()
            if let source = segment.sound,
                let clip = sound(
                    source, of: job, clips: &clips, sampleRate: rate, hasFallback: segment.markup != nil)
            {
                // An SSML <audio> (a capital's icon): the clip, its fallback text left unspoken.
                pending.append(.progress(job: job.id, position: sink.writePosition + UInt64(clip.samples.count)))
                report(pending)
                pending.removeAll()
                let complete = clip.samples.withUnsafeBufferPointer { samples in
                    writer.write(samples, isCancelled: { self.isCancelled(job.id) })
                }
                guard complete else { return true }
            } else if let markup = segment.markup, segment.language != nil {
                // Text in a language the model does not speak: the espeak-ng voice of that language.
                report(pending)
                pending.removeAll()
                guard speakWithEngine(markup, segment: segment, of: job, engine: engine, writer: &writer) else {
                    return true
                }
                reportedMarks = Set(segment.inlineMarks.indices)
            } else if segment.markup != nil {
                let text = NeuralText(segment: segment)
                let clauses: [PhonemizedClause]
                do {
                    clauses = try engine.phonemes(of: text.string, voice: model.config.espeakVoice)
                } catch {
                    logger.warning("\(error); the text is not spoken")
                    clauses = []
                }
                // The message's first clause alone: its first sound comes sooner.
                let firstClauseAlone = sink.writePosition == start
                for sentence in PiperSentence.sentences(
                    text: text, clauses: clauses, firstClauseAlone: firstClauseAlone)
                {
                    guard !isCancelled(job.id) else { return true }
                    let ids = PhonemeIDs(phonemes: sentence.phonemes, map: model.config.phonemeIDs)
                    for phoneme in ids.missing where model.loggedMissing.insert(phoneme).inserted {
                        logger.warning(
                            "neural voice \(voice.model): phoneme \(String(phoneme).debugDescription) (U+\(String(phoneme.value, radix: 16, uppercase: true))) is not in its phoneme map, skipped"
                        )
                    }
                    guard ids.ids.count > 3 else { continue }
                    logger.debug(
                        "neural sentence: \(String(String.UnicodeScalarView(sentence.phonemes)).debugDescription)")
                    neuralRun.begin(job: job.id, control: control)
                    // A cancel that came before the run was registered finds nothing to end.
                    guard !isCancelled(job.id) else {
                        neuralRun.end()
                        return true
                    }
                    let result: (samples: [Float], durations: [Float]?)
                    do {
                        result = try model.infer(ids.ids, lengthScale: lengthScale, control: control)
                    } catch {
                        neuralRun.end()
                        control.reset()
                        if isCancelled(job.id) { return true }
                        logger.error("neural voice \(voice.model): \(error); a sentence is left out")
                        continue
                    }
                    neuralRun.end()
                    if control.terminated { control.reset() }
                    guard !isCancelled(job.id) else { return true }
                    let modelSamples = Self.pcm(result.samples, from: model.config.sampleRate, to: rate)
                    let timeline = PiperTimeline(
                        idCount: ids.ids.count, durations: result.durations, sampleCount: modelSamples.count)
                    let samples = compressed(modelSamples, speed: compression, sampleRate: rate)
                    // Marks and words at the sample where they are heard after the compression.
                    let heard = { (sample: Int) in
                        min(samples.count, SpeedChange.position(sample, speed: compression))
                    }
                    let base = sink.writePosition
                    var placed: [(Int, SynthesisEvent)] = []
                    for mark in sentence.marks where mark.index < segment.inlineMarks.count {
                        let sample = heard(timeline.sample(ofPhoneme: mark.phoneme, in: ids))
                        placed.append(
                            (
                                sample,
                                .mark(
                                    job: job.id, name: segment.inlineMarks[mark.index], position: base + UInt64(sample))
                            ))
                        reportedMarks.insert(mark.index)
                    }
                    if job.reportsWords {
                        for word in sentence.words {
                            guard let range = text.textRange(of: word.text) else { continue }
                            let sample = heard(timeline.sample(ofPhoneme: word.phoneme, in: ids))
                            placed.append((sample, .word(job: job.id, text: range, position: base + UInt64(sample))))
                        }
                    }
                    // Marks before words at the same sample, as the engine reports them.
                    placed.sort { $0.0 < $1.0 }
                    pending += placed.map(\.1)
                    pending.append(.progress(job: job.id, position: base + UInt64(samples.count)))
                    report(pending)
                    pending.removeAll()
                    let complete = samples.withUnsafeBufferPointer { buffer in
                        writer.write(buffer, isCancelled: { self.isCancelled(job.id) })
                    }
                    guard complete else { return true }
                }
            }
            guard !isCancelled(job.id) else { return true }
            // Marks no sentence carried (a segment with nothing to say) come after it.
            for (index, name) in segment.inlineMarks.enumerated() where !reportedMarks.contains(index) {
                pending.append(.mark(job: job.id, name: name, position: sink.writePosition))
            }
            report(pending)
        }
        guard !isCancelled(job.id) else { return true }
        guard writeSilence(job.trailingSilence, for: job, writer: &writer, sampleRate: rate) else { return true }
        report([.end(job: job.id, position: sink.writePosition)])
        return true
    }

    /// The speeds a neural voice reaches by its length scale alone; libsonic takes over beyond.
    /// Piper's durations are whole frames, so a small length scale shortens short phonemes less:
    /// the joe voice at length scale 0.5 spoke 1.55 times its pace, not 2 (at MaximumRate 900,
    /// 929 words a minute with the scale up to 2, 1,045 up to 1.5, espeak-ng 1,077).
    static let neuralModelSpeeds = 0.5...1.5

    /// `samples` played `speed` times as fast (pitch kept); as they are when libsonic fails (logged).
    func compressed(_ samples: [Int16], speed: Double, sampleRate: Int) -> [Int16] {
        guard abs(speed - 1) > 0.001 else { return samples }
        guard let changed = SpeedChange.apply(samples, speed: speed, sampleRate: sampleRate) else {
            logger.error("libsonic cannot change the speed (out of memory); played at its own pace")
            return samples
        }
        return changed
    }

    /// Speaks one segment with espeak-ng (its language's voice), marks and words placed as the
    /// engine reports them; false once the job is cancelled.
    private func speakWithEngine(
        _ markup: String, segment: SpeechSegment, of job: SynthesisJob, engine: EspeakEngine, writer: inout JobWriter
    ) -> Bool {
        selectVoice(for: segment, of: job, engine: engine)
        engine.apply(job.parameters)
        var placer = MarkPlacer(job: job.id, segment: segment, base: sink.writePosition, placesWords: job.reportsWords)
        var output = writer
        defer { writer = output }
        let finishesWhenCancelled = markup.utf8.count <= Self.abortableSegmentBytes
        engine.synthesize(ssml: markup, pauseAtEnd: segment.pausesAtEnd, reportsWords: job.reportsWords) {
            chunk, engineEvents in
            guard !self.isCancelled(job.id) else { return finishesWhenCancelled }
            self.report(placer.place(engineEvents, chunkStart: self.sink.writePosition, count: chunk.count, trimmed: 0))
            return output.write(chunk, isCancelled: { self.isCancelled(job.id) }) || finishesWhenCancelled
        }
        guard !isCancelled(job.id) else { return false }
        report(placer.finish(at: sink.writePosition))
        return true
    }

    /// The model's samples as 16-bit ones at `outputRate`, scaled to full range as Piper does.
    static func pcm(_ samples: [Float], from modelRate: Int, to outputRate: Int) -> [Int16] {
        let converted = Resampling.convert(samples, from: modelRate, to: outputRate) ?? samples
        let peak = converted.reduce(Float(0)) { max($0, abs($1.isFinite ? $1 : 0)) }
        let scale = 32767 / max(peak, 0.01)
        return converted.map { value in
            guard value.isFinite else { return 0 }
            return Int16(max(-32767, min(32767, (value * scale).rounded())))
        }
    }
}
