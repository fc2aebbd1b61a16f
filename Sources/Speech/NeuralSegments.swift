import Logging
import OnnxRuntime
import Piper
import Playback
import RealModule
import SSML
import Samples
import Voices
import SoundFiles

/// A neural voice as a segment engine, whatever its model family: the segment's text made
/// phonemes by the model's front end (libespeak-ng for Piper, the kana table for Kokoro's
/// Japanese), grouped into sentences, each sentence inferred and written before the next is
/// inferred (so the first plays while the rest are made), marks and words placed from the
/// model's durations.
///
/// It runs on the synth thread as espeak-ng does; its ``NeuralModel`` is loaded off that thread,
/// by the ``NeuralModelStore``. The model's samples are resampled by libsoxr when its rate is not
/// the output's and made full-scale 16-bit PCM (`SampleEdit`); each sentence's marks and words
/// are reported before its samples are written.
struct NeuralSegments: SynthesisEngine {
    let model: any NeuralModel
    let control: OnnxRunControl
    /// libespeak-ng, for the phonemes.
    let espeak: EspeakEngine
    /// Where the inference under way is registered, so that a cancel ends it.
    let run: NeuralRunSlot
    let logger: Logger

    /// The factor a neural voice's pitch is shifted by for espeak-ng's pitch `setting` (0…100,
    /// 50 normal): the heard change espeak-ng voices make, 59 steps an octave (see
    /// ``EngineParameters/pitchSteps(risingBy:)``).
    static func pitch(_ setting: Int) -> Double {
        Double.exp2(Double(setting - 50) / 59)
    }

    /// How one segment is spoken: its text, the model's length scale and the compression libsonic
    /// adds beyond it.
    private struct Plan {
        let text: NeuralText
        /// The speed the model is asked for (its length scale for Piper).
        let modelSpeed: Double
        let compression: Double
        let pitch: Double
    }

    func speak(
        _ segment: SpeechSegment, markup: String, leadingMarks: [SynthesisEvent], pausesAtEnd: Bool,
        into output: SegmentOutput
    ) -> Bool {
        let job = output.job
        // Marks before the segment's text are heard with its first word, not with the silence
        // the model makes for the start symbol before it (50 ms early with joe).
        var leading = leadingMarks.compactMap { event -> String? in
            if case .mark(_, let name, _) = event { name } else { nil }
        }
        let text = NeuralText(segment: segment)
        // The message's speed times the segment's <prosody rate>: the model's own length scale
        // over the range it speaks well, libsonic for the rest.
        let speed = job.speed * text.rate
        let speeds = model.modelSpeeds
        let modelSpeed = min(max(speed, speeds.lowerBound), speeds.upperBound)
        let plan = Plan(
            text: text, modelSpeed: modelSpeed, compression: speed / modelSpeed, pitch: Self.pitch(job.parameters.pitch))
        let clauses: [PhonemizedClause]
        var realigns = true
        do {
            (clauses, realigns) = try model.clauses(of: text, espeak: espeak)
        } catch {
            logger.warning("\(error); the text is not spoken")
            clauses = []
        }
        // The message's first clause alone: its first sound comes sooner.
        let firstClauseAlone = output.position == output.messageStart
        var sentences = PiperSentence.sentences(
            text: text, clauses: clauses, firstClauseAlone: firstClauseAlone, realigns: realigns,
            maximumPhonemes: model.maximumPhonemes, cutsWords: model.cutsFirstClause)
        // A sentence that goes on in the next segment (at another <prosody rate>, in another
        // voice) is joined to it as a cut clause's pieces are.
        if !segment.pausesAtEnd, !sentences.isEmpty { sentences[sentences.count - 1].endsMidClause = true }
        if segment.continuesSentence, !sentences.isEmpty { sentences[0].startsMidClause = true }
        var reportedMarks = Set<Int>()
        for (index, sentence) in sentences.enumerated() {
            guard !output.isCancelled else { return false }
            guard let inferred = infer(sentence, plan: plan, output: output) else { continue }
            // The start symbol's silence is left out where it would only delay the sound: the
            // message's first sentence and the rest of a cut clause.
            let trimsStart =
                sentence.startsMidClause || (firstClauseAlone && index == 0) || model.startSymbolIsPause
            let spoken = write(
                inferred, of: sentence, in: segment, plan: plan, trimsStart: trimsStart, leadingMarks: leading,
                into: output)
            leading.removeAll()
            reportedMarks.formUnion(sentence.marks.map(\.index))
            guard spoken else { return false }
        }
        guard !output.isCancelled else { return false }
        // Marks no sentence carried (a segment with nothing to say) come after it.
        var pending = leading.map { SynthesisEvent.mark(job: job.id, name: $0, position: output.position) }
        for (index, name) in segment.inlineMarks.enumerated() where !reportedMarks.contains(index) {
            pending.append(.mark(job: job.id, name: name, position: output.position))
        }
        output.report(pending)
        return true
    }

    /// What the model made of one sentence.
    private struct Inferred {
        let ids: PhonemeIDs
        /// At the output's rate, full scale.
        let samples: [Int16]
        let timeline: PiperTimeline
    }

    /// Infers `sentence`; nil when it is left out (too short, an inference error: logged) or the
    /// job was cancelled meanwhile.
    private func infer(_ sentence: PiperSentence, plan: Plan, output: SegmentOutput) -> Inferred? {
        let ids = model.ids(of: sentence.phonemes)
        for phoneme in ids.missing where model.loggedMissing.insert(phoneme).inserted {
            logger.warning(
                "neural voice \(model.voice.model): phoneme \(String(phoneme).debugDescription) (U+\(String(phoneme.value, radix: 16, uppercase: true))) is not in its phoneme map, skipped"
            )
        }
        guard ids.ids.count > 3 else { return nil }
        logger.debug("neural sentence: \(String(String.UnicodeScalarView(sentence.phonemes)).debugDescription)")
        run.begin(job: output.job.id, control: control)
        // A cancel that came before the run was registered finds nothing to end.
        guard !output.isCancelled else {
            run.end()
            return nil
        }
        let result: (samples: [Float], durations: [Float]?)
        do {
            result = try model.infer(ids, speed: plan.modelSpeed, control: control)
        } catch {
            run.end()
            control.reset()
            if !output.isCancelled { logger.error("neural voice \(model.voice.model): \(error); a sentence is left out") }
            return nil
        }
        run.end()
        if control.terminated { control.reset() }
        guard !output.isCancelled else { return nil }
        let converted = Resampling.convert(result.samples, from: model.sampleRate, to: output.sampleRate)
        let samples = SampleEdit.fullScalePCM(converted ?? result.samples)
        return Inferred(
            ids: ids, samples: samples,
            timeline: PiperTimeline(idCount: ids.ids.count, durations: result.durations, sampleCount: samples.count))
    }

    /// Writes what the model made of `sentence`: trimmed where it joins, its pitch and speed
    /// changed, each word's volume applied, its marks and words reported where they are heard
    /// before the samples are written. False once the job is cancelled.
    private func write(
        _ inferred: Inferred, of sentence: PiperSentence, in segment: SpeechSegment, plan: Plan, trimsStart: Bool,
        leadingMarks: [String], into output: SegmentOutput
    ) -> Bool {
        let job = output.job
        let (ids, timeline) = (inferred.ids, inferred.timeline)
        // The start symbol's silence is left out where asked, the end symbol's where a clause was
        // cut, so that its two pieces join as one. Only where the model gave its durations: an
        // even spread could cut into speech.
        let lead = timeline.isMeasured && trimsStart ? timeline.sample(ofID: ids.startSymbolCount) : 0
        let tail =
            timeline.isMeasured && sentence.endsMidClause
            ? timeline.sample(ofID: ids.ids.count - ids.endSymbolCount) : inferred.samples.count
        var kept = Array(inferred.samples[lead..<max(lead, tail)])
        SampleEdit.fadeCut(&kept, in: lead > 0, out: tail < inferred.samples.count)
        // A model whose sentences end in long silence has it cut to its pause (at the model's pace).
        if let pause = model.sentencePause, !sentence.endsMidClause,
            let last = kept.lastIndex(where: { abs(Int($0)) >= Int(PiperTimeline.audibleLevel) })
        {
            let longest = Int(pause / plan.modelSpeed * Double(output.sampleRate))
            if kept.count - (last + 1) > longest { kept.removeSubrange((last + 1 + longest)...) }
        }
        // Where a phoneme is heard in what is kept, before the compression.
        let keptSample = { (phoneme: Int) in
            min(kept.count, max(0, timeline.heardSample(ofPhoneme: phoneme, in: ids, samples: inferred.samples) - lead))
        }
        var samples = changed(
            kept, sentence: sentence, plan: plan, sampleRate: output.sampleRate, keptSample: keptSample)
        // Marks and words at the sample where they are heard after the compression.
        let heard = { (phoneme: Int) in
            min(samples.count, SpeedChange.position(keptSample(phoneme), speed: plan.compression))
        }
        // Each word's <prosody volume>, from the word's first sound.
        var gains: [(sample: Int, gain: Double)] = []
        for word in sentence.words where word.text.lowerBound < plan.text.volumes.count {
            let gain = plan.text.volumes[word.text.lowerBound]
            guard gains.last?.gain != gain else { continue }
            gains.append((gains.isEmpty ? 0 : heard(word.phoneme), gain))
        }
        SampleEdit.amplify(&samples, gains: gains)
        let base = output.position
        var placed: [(Int, SynthesisEvent)] = []
        let first = heard(sentence.words.first?.phoneme ?? 0)
        placed += leadingMarks.map { (first, .mark(job: job.id, name: $0, position: base + UInt64(first))) }
        for mark in sentence.marks where mark.index < segment.inlineMarks.count {
            let sample = heard(mark.phoneme)
            placed.append((sample, .mark(job: job.id, name: segment.inlineMarks[mark.index], position: base + UInt64(sample))))
        }
        if job.reportsWords {
            for word in sentence.words {
                guard let range = plan.text.textRange(of: word.text) else { continue }
                let sample = heard(word.phoneme)
                placed.append((sample, .word(job: job.id, text: range, position: base + UInt64(sample))))
            }
        }
        // Marks before words at the same sample, as the engine reports them.
        placed.sort { $0.0 < $1.0 }
        output.report(placed.map(\.1) + [.progress(job: job.id, position: base + UInt64(samples.count))])
        return output.write(samples)
    }

    /// `kept` at the plan's compression, its pitch shifted by the pitch setting and each word's
    /// `<prosody pitch>` from the word's first sound.
    private func changed(
        _ kept: [Int16], sentence: PiperSentence, plan: Plan, sampleRate: Int, keptSample: (Int) -> Int
    ) -> [Int16] {
        let pitches = plan.text.pitches
        let voiceHertz = Self.voiceHertz(
            of: model, from: kept, sampleRate: sampleRate,
            if: sentence.words.contains { $0.text.lowerBound < pitches.count && pitches[$0.text.lowerBound].isInHertz },
            logger: logger)
        var changes: [(sample: Int, pitch: Double)] = []
        for word in sentence.words where word.text.lowerBound < pitches.count {
            let prosody = pitches[word.text.lowerBound]
            let factor =
                plan.pitch * prosody.factor * Double.exp2(prosody.semitones / 12)
                * prosody.hertzRatio(voiceHertz: voiceHertz)
            guard changes.last?.pitch != factor else { continue }
            changes.append((changes.isEmpty ? 0 : keptSample(word.phoneme), factor))
        }
        let speed = plan.compression
        let shifts = changes.isEmpty ? [(sample: 0, pitch: plan.pitch)] : changes
        guard abs(speed - 1) > 0.001 || shifts.contains(where: { abs($0.pitch - 1) > 0.001 }) else { return kept }
        guard let changed = SpeedChange.apply(kept, speed: speed, pitches: shifts, sampleRate: sampleRate) else {
            logger.error("libsonic cannot change the speed or pitch (out of memory); played as the model made it")
            return kept
        }
        return changed
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
        of model: any NeuralModel, from samples: [Int16], sampleRate: Int, if needed: Bool, logger: Logger
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
}
