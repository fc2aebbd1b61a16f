import AudioSinks
import Logging
import OnnxRuntime
import Piper
import Playback
import RealModule
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
        // The model has no pitch control: libsonic shifts it.
        let pitch = Self.neuralPitch(job.parameters.pitch)
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
                pending += clipWords(segment, of: job, count: clip.samples.count)
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
                // Marks before the segment's text are heard with its first word, not with the
                // silence the model makes for the start symbol before it (50 ms early with joe).
                var leadingMarks = pending.compactMap { event -> String? in
                    if case .mark(_, let name, _) = event { name } else { nil }
                }
                pending.removeAll()
                let text = NeuralText(segment: segment)
                // The message's speed times the segment's <prosody rate>: the model's own length
                // scale over the range it speaks well, libsonic for the rest.
                let speed = job.speed * text.rate
                let modelSpeed = min(max(speed, Self.neuralModelSpeeds.lowerBound), Self.neuralModelSpeeds.upperBound)
                let lengthScale = max(0.2, min(5, model.config.lengthScale / Float(modelSpeed)))
                let compression = speed / modelSpeed
                let clauses: [PhonemizedClause]
                do {
                    clauses = try engine.phonemes(of: text.string, voice: model.config.espeakVoice)
                } catch {
                    logger.warning("\(error); the text is not spoken")
                    clauses = []
                }
                // The message's first clause alone: its first sound comes sooner.
                let firstClauseAlone = sink.writePosition == start
                var sentences = PiperSentence.sentences(
                    text: text, clauses: clauses, firstClauseAlone: firstClauseAlone)
                // A sentence that goes on in the next segment (at another <prosody rate>, in
                // another voice) is joined to it as a cut clause's pieces are.
                if !segment.pausesAtEnd, !sentences.isEmpty { sentences[sentences.count - 1].endsMidClause = true }
                if segment.continuesSentence, !sentences.isEmpty { sentences[0].startsMidClause = true }
                for (index, sentence) in sentences.enumerated() {
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
                    // The start symbol's silence is left out where it would only delay the sound:
                    // the message's first sentence and the rest of a cut clause; the end symbol's
                    // where a clause was cut, so that its two pieces join as one. Only where the
                    // model gave its durations: an even spread could cut into speech.
                    let trimsStart =
                        timeline.isMeasured && (sentence.startsMidClause || (firstClauseAlone && index == 0))
                    let lead = trimsStart ? timeline.sample(ofID: ids.startSymbolCount) : 0
                    let tail =
                        timeline.isMeasured && sentence.endsMidClause
                        ? timeline.sample(ofID: ids.ids.count - ids.endSymbolCount) : modelSamples.count
                    var kept = Array(modelSamples[lead..<max(lead, tail)])
                    Self.fade(&kept, in: lead > 0, out: tail < modelSamples.count)
                    // Where a phoneme is heard in what is kept, before the compression.
                    let keptSample = { (phoneme: Int) in
                        min(
                            kept.count,
                            max(0, timeline.heardSample(ofPhoneme: phoneme, in: ids, samples: modelSamples) - lead))
                    }
                    // The pitch setting and each word's <prosody pitch>, from the word's first sound.
                    let voiceHertz = Self.voiceHertz(
                        of: model, from: kept, sampleRate: rate,
                        if: sentence.words.contains {
                            $0.text.lowerBound < text.pitches.count && text.pitches[$0.text.lowerBound].isInHertz
                        }, logger: logger)
                    var pitches: [(sample: Int, pitch: Double)] = []
                    for word in sentence.words where word.text.lowerBound < text.pitches.count {
                        let prosody = text.pitches[word.text.lowerBound]
                        let factor =
                            pitch * prosody.factor * Double.exp2(prosody.semitones / 12)
                            * prosody.hertzRatio(voiceHertz: voiceHertz)
                        guard pitches.last?.pitch != factor else { continue }
                        pitches.append((pitches.isEmpty ? 0 : keptSample(word.phoneme), factor))
                    }
                    var samples = changed(
                        kept, speed: compression, pitches: pitches.isEmpty ? [(0, pitch)] : pitches, sampleRate: rate)
                    // Marks and words at the sample where they are heard after the compression.
                    let base = sink.writePosition
                    let heardPhoneme = { (phoneme: Int) in
                        min(samples.count, SpeedChange.position(keptSample(phoneme), speed: compression))
                    }
                    // Each word's <prosody volume>, from the word's first sound.
                    var gains: [(sample: Int, gain: Double)] = []
                    for word in sentence.words where word.text.lowerBound < text.volumes.count {
                        let gain = text.volumes[word.text.lowerBound]
                        guard gains.last?.gain != gain else { continue }
                        gains.append((gains.isEmpty ? 0 : heardPhoneme(word.phoneme), gain))
                    }
                    Self.amplify(&samples, gains: gains)
                    var placed: [(Int, SynthesisEvent)] = []
                    if !leadingMarks.isEmpty {
                        let sample = heardPhoneme(sentence.words.first?.phoneme ?? 0)
                        placed += leadingMarks.map {
                            (sample, .mark(job: job.id, name: $0, position: base + UInt64(sample)))
                        }
                        leadingMarks.removeAll()
                    }
                    for mark in sentence.marks where mark.index < segment.inlineMarks.count {
                        let sample = heardPhoneme(mark.phoneme)
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
                            let sample = heardPhoneme(word.phoneme)
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
                pending += leadingMarks.map { .mark(job: job.id, name: $0, position: sink.writePosition) }
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

    /// The factor a neural voice's pitch is shifted by for espeak-ng's pitch `setting` (0…100,
    /// 50 normal): the heard change espeak-ng voices make, 59 steps an octave (see
    /// ``EngineParameters/pitchSteps(risingBy:)``).
    static func neuralPitch(_ setting: Int) -> Double {
        Double.exp2(Double(setting - 50) / 59)
    }

    /// `samples` played `speed` times as fast with their pitch changed as `pitches` say (see
    /// ``SpeedChange/apply(_:speed:pitches:sampleRate:)``); as they are when libsonic fails (logged).
    func changed(_ samples: [Int16], speed: Double, pitches: [(sample: Int, pitch: Double)], sampleRate: Int) -> [Int16]
    {
        guard abs(speed - 1) > 0.001 || pitches.contains(where: { abs($0.pitch - 1) > 0.001 }) else { return samples }
        guard let changed = SpeedChange.apply(samples, speed: speed, pitches: pitches, sampleRate: sampleRate) else {
            logger.error("libsonic cannot change the speed or pitch (out of memory); played as the model made it")
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

    /// `samples` times `gains[i].gain` from sample `gains[i].sample` on (in order; 1 before the
    /// first), each change made over ``cutFade`` samples so that it does not click; clipped at full scale.
    static func amplify(_ samples: inout [Int16], gains: [(sample: Int, gain: Double)]) {
        guard gains.contains(where: { abs($0.gain - 1) > 0.001 }) else { return }
        var previous = gains[0].gain
        for (index, change) in gains.enumerated() {
            let from = min(max(change.sample, 0), samples.count)
            let to = index + 1 < gains.count ? min(max(gains[index + 1].sample, from), samples.count) : samples.count
            let gain = change.gain.isFinite ? max(0, change.gain) : 1
            for offset in from..<to {
                let step = offset - from
                let factor = step < cutFade ? previous + (gain - previous) * Double(step) / Double(cutFade) : gain
                samples[offset] = Int16(max(-32767, min(32767, (Double(samples[offset]) * factor).rounded())))
            }
            previous = gain
        }
    }

    /// Voiced frames (23 ms apart) a sentence must have for its F0 to stand for the voice's: a
    /// second of voice. A shorter stretch is measured for itself only: the 3 words a message's
    /// first clause starts with are spoken higher than the voice's median (joe: 115 Hz against
    /// 90, so `+60Hz` raised the message by 1.52, not 1.66).
    static let voiceMeasureFrames = 40

    /// The F0 of `model`'s voice when `needed` (a pitch in hertz): measured once, on the model's
    /// samples of the first sentence that needs it (`samples`, unshifted), and kept; a sentence
    /// too short to stand for the voice is measured for itself only. nil when not needed or
    /// not measurable (unvoiced): the hertz are then left out.
    static func voiceHertz(
        of model: PiperModel, from samples: [Int16], sampleRate: Int, if needed: Bool, logger: Logger
    ) -> Double? {
        guard needed else { return nil }
        if let known = model.medianHertz { return known }
        guard let measured = VoicePitch.median(of: samples, sampleRate: sampleRate) else {
            logger.notice(
                "neural voice \(model.voice.model): no voiced sound to measure its pitch on; a pitch in Hz is left out")
            return nil
        }
        if measured.voicedFrames >= voiceMeasureFrames {
            model.medianHertz = measured.hertz
            logger.info(
                "neural voice \(model.voice.model): median F0 \(Int(measured.hertz.rounded())) Hz (for pitches in Hz)")
        }
        return measured.hertz
    }

    /// Samples a cut leaves: 3 ms at 22,050 Hz, enough that a cut through a sound does not click.
    static let cutFade = 64

    /// `samples` faded in at their start and out at their end, where they were cut.
    static func fade(_ samples: inout [Int16], in fadesIn: Bool, out fadesOut: Bool) {
        let length = min(cutFade, samples.count / 2)
        guard length > 0 else { return }
        for offset in 0..<length {
            let gain = Double(offset) / Double(length)
            if fadesIn { samples[offset] = Int16((Double(samples[offset]) * gain).rounded()) }
            if fadesOut {
                let last = samples.count - 1 - offset
                samples[last] = Int16((Double(samples[last]) * gain).rounded())
            }
        }
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
