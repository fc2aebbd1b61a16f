import Glibc
import TestSupport
import Testing

// What a listener hears when speech is stopped (issue 25): on every native path, 20 STOPs of
// speech at varied moments in a stream's life (the first of a fresh module, right after the stream
// was corked in silence or ran dry, mid-sentence), recorded from the null sink's monitor, and each
// cut judged by its last millisecond against the same speech unstopped: a 4 ms fade leaves about
// 0.14 of its level there, a cut all of it. UTTER_KEEP_STOPS=PREFIX keeps the recordings.

/// The judged end of one stopped message.
struct StopCut: CustomStringConvertible {
    /// When the STOP was sent: after what, and the milliseconds after the message was first heard.
    let moment: String
    let afterSound: Int
    /// The sample of the recording where the sound ended.
    let end: Int
    /// The gain the listener heard in the last millisecond: the RMS of what was recorded over the
    /// RMS of the same stretch of the unstopped speech (about 0.14 after a 4 ms fade, 1 after a cut).
    let gain: Double
    /// The issue's measure: the peak of the last millisecond over the largest peak of the 10 ms
    /// before it (shown, not judged: on speech a real 4 ms fade gives up to 0.6, see below).
    let lastMillisecond: Double
    /// How well the recording matched the unstopped speech before the cut (normalized correlation;
    /// not a number when too little was heard before the fade to match it, or only silence).
    let match: Double
    /// Whether the unstopped speech falls silent within a millisecond of where the heard sound
    /// ended (the STOP came as a word ended, or in the pause after it): nothing was cut there,
    /// whatever the gain says.
    let naturalEnd: Bool
    /// Judged on the second recording, the first having lost samples there (see ``stopCuts``).
    var heardAgain = false

    /// A cut is an end whose last millisecond kept more than 0.3 (issue 25's line) on both
    /// measures: of the unstopped speech's level there, and of the largest peak of the 10 ms
    /// before it. (Either alone misjudges speech: a real 4 ms fade of a low, rising or lop-sided
    /// wave leaves up to 0.6 of the peak measure; a STOP in a pause between sounds ends a natural
    /// decay, unfaded but quiet, not heard as a click. A cut keeps about 1 on both; the smoothstep
    /// fade, 0.25 at most in every run since stop 31.)
    var isHard: Bool { !naturalEnd && gain > 0.3 && lastMillisecond > 0.3 }

    /// Whether what was heard before the end is not the unstopped speech (NaN, too little sound or
    /// silence before the fade to match, is not judged).
    var isUnmatched: Bool { match < 0.5 }

    var description: String {
        "\(moment) +\(afterSound) ms: gain \(rounded(gain)), last ms/10 ms \(rounded(lastMillisecond)), match \(match.isNaN ? "none (short or silent)" : "\(rounded(match))"), sample \(end)\(naturalEnd ? ", the speech ends there too" : "")\(heardAgain ? " (the second recording)" : "")"
    }

    private func rounded(_ value: Double) -> Double { Double(Int(value * 100 + 0.5)) / 100 }
}

/// Samples at or above this are audible (-40 dBFS), as in bench/server: where a message starts.
private let audible: Int32 = 300
/// Samples below this are silence (-60 dBFS) where a stopped sound ends: after a STOP the stream
/// plays digital zeros (a resampler rings a few units), and at -40 dBFS the end of the sound would
/// be taken inside the fade, whose last millisecond then holds up to half the local amplitude.
private let silent: Int32 = 30
private let rate = 22050
private let millisecond = rate / 1000

/// Judges the sound of `samples` that starts at `onset` and ends at its last sample of `silent` or
/// more before `silence` samples of less. `reference` is the whole message unstopped and
/// `referenceOnset` its first audible sample: the recording is matched with it just before the end
/// (a resampler and any gap move it a little), then the gain heard in the last millisecond is the
/// RMS of the recording there over the RMS of the unstopped speech at the same place.
/// Nil if the sound never ends in `samples`.
func judgeCut(
    _ samples: [Int16], onset: Int, silence: Int, reference: [Int16], referenceOnset: Int
) -> (end: Int, gain: Double, lastMillisecond: Double, match: Double, naturalEnd: Bool)? {
    var last = onset
    var index = onset
    while index < samples.count {
        if abs(Int32(samples[index])) >= silent {
            last = index
        } else if index - last >= silence {
            break
        }
        index += 1
    }
    guard index - last >= silence else { return nil }
    func peak(_ range: Range<Int>) -> Int32 {
        samples[max(range.lowerBound, 0)..<max(range.upperBound, 0)].reduce(0) { max($0, abs(Int32($1))) }
    }
    let lastMillisecond =
        Double(peak((last + 1 - millisecond)..<(last + 1)))
        / Double(max(peak((last + 1 - 11 * millisecond)..<(last + 1 - millisecond)), 1))

    // Match up to 60 ms that end 6 ms before the end (before any 4 ms fade) with the unstopped speech,
    // from 100 ms earlier than the onsets say (a gap in playback) to 150 ms later (PulseAudio's
    // monitor can miss the first tens of milliseconds of a stream that starts). (Over 24 ms a
    // voiced sound matched itself one pitch period away about as well, 0.997 against 0.988 once,
    // and the gain was taken 9 ms off.)
    // (The window starts no earlier than the onset, where PulseAudio's monitor may have missed the
    // stream's start; a STOP right after the onset leaves a short sound: the window of 24 ms then
    // starts up to 10 ms before it.)
    let windowStart = max(last - 66 * millisecond, min(onset, max(last - 30 * millisecond, onset - 10 * millisecond)), 0)
    let window = last - 6 * millisecond - windowStart
    let nominal = last - onset + referenceOnset
    var best = (shift: 0, correlation: -2.0)
    samples.withUnsafeBufferPointer { heard in
        reference.withUnsafeBufferPointer { spoken in
            // Too little sound before the fade to match: taken where the onsets say.
            guard last - 6 * millisecond - onset >= 8 * millisecond else {
                best = (0, .nan)
                return
            }
            var heardEnergy = 0.0
            for offset in 0..<window { heardEnergy += Double(heard[windowStart + offset]) * Double(heard[windowStart + offset]) }
            // Silence before the fade (a STOP in a pause between words that faded the next word's
            // first milliseconds: heard as a faint tick 40 ms after the word before it ended, on
            // pipewire-pulse when the STOP came late): nothing to match, taken where the onsets say.
            guard heardEnergy >= Double(window) * Double(silent) * Double(silent) else {
                best = (0, .nan)
                return
            }
            for shift in (-100 * millisecond)...(150 * millisecond) {
                let from = windowStart - last + nominal + shift
                guard from >= 0, from + window + 7 * millisecond < spoken.count else { continue }
                let correlation = normalizedCorrelation(
                    heard, windowStart, spoken, from, count: window, firstEnergy: heardEnergy)
                if correlation > best.correlation { best = (shift, correlation) }
            }
        }
    }
    // Matched again over the fade itself (the 4 ms before the last, within 12 samples; a fade
    // scales the sound, which correlation does not mind): the words' timing drifts by a few
    // samples over tens of milliseconds between one rendering and another (espeak-ng's synthesis
    // goes on from the message before), and the gain must compare the fade with what it fades.
    if !best.correlation.isNaN {
        let start = last - 5 * millisecond
        let length = 4 * millisecond
        var local = (shift: 0, correlation: 0.8)
        for delta in -12...12 {
            let from = start - last + nominal + best.shift + delta
            guard start >= 0, from >= 0, from + length <= reference.count else { continue }
            var product = 0.0
            var heardEnergy = 0.0
            var energy = 0.0
            for offset in 0..<length {
                let heard = Double(samples[start + offset])
                let value = Double(reference[from + offset])
                product += heard * value
                heardEnergy += heard * heard
                energy += value * value
            }
            let correlation = product / max((heardEnergy * energy).squareRoot(), 1)
            if correlation > local.correlation { local = (delta, correlation) }
        }
        best.shift += local.shift
    }
    // The gain over the last millisecond; 2 ms where the speech is nearly silent in the last one.
    let at = nominal + best.shift
    var gain = 0.0
    for length in [millisecond, 2 * millisecond] {
        var heard = 0.0
        var spoken = 0.0
        for index in (last + 1 - length)...last {
            heard += Double(samples[index]) * Double(samples[index])
            let position = index - last + at
            let value = position >= 0 && position < reference.count ? Double(reference[position]) : 0
            spoken += value * value
        }
        gain = (heard / max(spoken, 1)).squareRoot()
        if spoken >= Double(length) * 40 * 40 { break }
    }
    // The unstopped speech a millisecond after the end: silent too when the sound ended by itself
    // (espeak-ng ends a word into digital silence at once, a STOP that comes then has nothing to cut).
    var after = 0.0
    for index in (last + 1 + millisecond)...(last + 2 * millisecond) {
        let position = index - last + at
        let value = position >= 0 && position < reference.count ? Double(reference[position]) : 0
        after += value * value
    }
    let naturalEnd = !best.correlation.isNaN && after < Double(millisecond) * Double(silent) * Double(silent)
    return (last, gain, lastMillisecond, best.correlation, naturalEnd)
}

/// The normalized correlation of `count` samples of `first` from `firstStart` with as many of
/// `second` from `secondStart`; `firstEnergy` is the sum of the squares of the first's.
private func normalizedCorrelation(
    _ first: UnsafeBufferPointer<Int16>, _ firstStart: Int, _ second: UnsafeBufferPointer<Int16>, _ secondStart: Int,
    count: Int, firstEnergy: Double
) -> Double {
    var product = 0.0
    var energy = 0.0
    for offset in 0..<count {
        let value = Double(second[secondStart + offset])
        product += Double(first[firstStart + offset]) * value
        energy += value * value
    }
    return product / max((firstEnergy * energy).squareRoot(), 1)
}

/// A parec recording whose growth is followed: where sound first appears after a given sample,
/// and whether its newest part is silent, read from the file's tail only.
private struct FollowedRecording {
    let monitor: MonitorRecording

    /// The number of samples recorded so far.
    var count: Int {
        var status = stat()
        return stat(monitor.path, &status) == 0 ? Int(status.st_size) / 2 : 0
    }

    /// Samples `from..<to` of the recording.
    func samples(_ range: Range<Int>) -> [Int16] {
        let fd = open(monitor.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: max(range.count, 0) * 2)
        let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(range.lowerBound * 2)) }
        return littleEndianSamples(Array(bytes.prefix(max(got, 0))))
    }

    /// The first audible sample at or after `start`, waiting at most `seconds` for it.
    func firstSound(after start: Int, within seconds: Double) -> Int? {
        let deadline = monotonicSeconds() + seconds
        var from = start
        while monotonicSeconds() < deadline {
            let end = count
            if end > from {
                let part = samples(from..<end)
                if let index = part.firstIndex(where: { abs(Int32($0)) >= audible }) { return from + index }
                from += part.count
            }
            usleep(2_000)
        }
        return nil
    }

    /// Waits until the newest `milliseconds` of the recording are silent (at most `seconds`).
    func waitForSilence(milliseconds: Int, within seconds: Double) -> Bool {
        let deadline = monotonicSeconds() + seconds
        let window = milliseconds * rate / 1000
        while monotonicSeconds() < deadline {
            let end = count
            if end >= window, samples((end - window)..<end).allSatisfy({ abs(Int32($0)) < audible }) { return true }
            usleep(10_000)
        }
        return false
    }
}

/// A long sentence without punctuation: the voice makes no pause in it long enough to be taken for
/// the end of the sound (checked: no silence over 120 ms in it at the default rate).
private let stoppedText =
    "<speak>the quick brown fox jumps over the lazy dog while the orchestra keeps playing a very long and rather slow piece of music for everyone in the hall</speak>"

/// When a STOP comes: after what the stream went through, and how long after the message was heard.
private struct StopMoment {
    enum Before { case freshModule, silence, ranDry, stop }
    let before: Before
    let afterSound: Int
}

/// Four fresh modules with five STOPs each: the first within 300 ms of the module's first sound
/// (the stream new, no timing reply or just one), then after the stream was corked in silence,
/// right after a message ran out (the stream ran dry), mid-sentence right after another STOP.
private let stopPlan: [[StopMoment]] = [
    [.init(before: .freshModule, afterSound: 40), .init(before: .silence, afterSound: 20),
     .init(before: .silence, afterSound: 700), .init(before: .ranDry, afterSound: 60), .init(before: .stop, afterSound: 1200)],
    [.init(before: .freshModule, afterSound: 120), .init(before: .silence, afterSound: 80),
     .init(before: .ranDry, afterSound: 10), .init(before: .stop, afterSound: 400), .init(before: .silence, afterSound: 1500)],
    [.init(before: .freshModule, afterSound: 200), .init(before: .stop, afterSound: 50),
     .init(before: .silence, afterSound: 250), .init(before: .ranDry, afterSound: 900), .init(before: .silence, afterSound: 25)],
    [.init(before: .freshModule, afterSound: 280), .init(before: .ranDry, afterSound: 150),
     .init(before: .silence, afterSound: 40), .init(before: .stop, afterSound: 100), .init(before: .silence, afterSound: 600)],
]

/// Gives the cuts of `stopPlan` on `path`: a private sound server, its monitor recorded, a fresh
/// module per row, each STOP judged once the recording is silent again.
func stopCuts(server: SoundServerKind, path: PlaybackPath) throws -> (cuts: [StopCut], unjudged: [String]) {
    // The message unstopped, as the module makes it (the ALSA capture file, sample for sample): as
    // the first message of a module, and right after "yes" as the ran-dry STOPs follow it. They
    // differ: espeak-ng's synthesis goes on from the message before (after "yes" the same words
    // come up to 10 samples earlier or later in their first 100 ms), and a judge that lined the
    // ran-dry STOPs up with the first took that for samples lost by the stream.
    let reference: [Int16]
    let referenceAfterYes: [Int16]
    do {
        let capture = CaptureRig()
        let module = try startModule(capture, audioMethod: "alsa")
        speak(module, stoppedText)
        #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n")
        reference = capture.samples()
        speak(module, "<speak>yes</speak>")
        #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n")
        let before = capture.samples().count
        speak(module, stoppedText)
        #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n")
        #expect(module.quit() == 0)
        referenceAfterYes = Array(capture.samples().dropFirst(before))
    }
    let referenceOnset = try #require(
        reference.firstIndex { abs(Int32($0)) >= audible }, "the unstopped message is audible (\(reference.count) samples)")
    let referenceAfterYesOnset = try #require(
        referenceAfterYes.firstIndex { abs(Int32($0)) >= audible },
        "the unstopped message after yes is audible (\(referenceAfterYes.count) samples)")
    let rig = CaptureRig()
    let pulse = try PrivateSoundServer(runtime: rig.folder + "/pulse", kind: server)
    // On PipeWire the recorder asks for no less latency than the module's stream (30 ms on
    // pipewire-pulse), so that the graph runs as the stream alone sets it, as on a desktop where
    // nothing else plays: a quantum of 21 ms through pipewire-pulse, 10.7 ms through libpipewire (a
    // 5 ms recorder held it at 5.3 ms). Not on PulseAudio: there a slower recorder lets the sink mix
    // further ahead, and a STOP's rewrite is then played by rewinding the sink, which its monitor
    // cannot show (what it passed on stays recorded), so the recording is no longer what is heard.
    let monitor = try MonitorRecording(
        pulse: pulse, path: rig.folder + "/heard.raw", latencyMilliseconds: server == .pipeWire ? 30 : 5)
    let recording = FollowedRecording(monitor: monitor)
    // A second recorder of the same monitor, in a process of its own on PipeWire: a recorder that
    // misses samples can make a fade look like a cut (the sound runs at full level into the
    // silence after it), never a cut look like a fade, so a cut is judged again on the second
    // recording where the first shows it hard. (Parec's recording in a CI run went from full
    // speech to silence at a fresh module's first STOP on PipeWire, the other 19 faded; here,
    // with both cores kept busy, pw-record lost 117 and 118 samples in two of six runs, parec's
    // recording of the same runs whole.)
    let finishSecond: () -> [Int16]
    switch server {
    case .pipeWire:
        let second = try NativeMonitorRecording(
            pulse: pulse, path: rig.folder + "/heard-again.wav", latencyMilliseconds: 30)
        finishSecond = { second.finish() }
    case .pulseAudio:
        let second = try MonitorRecording(pulse: pulse, path: rig.folder + "/heard-again.raw", latencyMilliseconds: 5)
        finishSecond = { second.finish() }
    }
    var onsets: [(StopMoment, Int)] = []
    var unjudged: [String] = []
    for row in stopPlan {
        let module = try startPacedModule(rig, pulse: pulse, configuration: "", path: path)
        for moment in row {
            switch moment.before {
            case .freshModule, .stop:
                break
            case .silence:
                usleep(700_000)  // the stream runs dry and is corked
            case .ranDry:
                speak(module, "<speak>yes</speak>")
                #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n")
                // Heard out, so that the next onset is the stopped message's.
                _ = recording.waitForSilence(milliseconds: 20, within: 5)
            }
            let start = recording.count
            speak(module, stoppedText)
            #expect(module.expect("701 BEGIN\n", within: 30) == "701 BEGIN\n")
            guard let onset = recording.firstSound(after: start, within: 10) else {
                unjudged.append("\(moment.before) +\(moment.afterSound) ms: never heard")
                module.send("STOP\n")
                _ = module.expect("703 STOP\n")
                continue
            }
            usleep(useconds_t(moment.afterSound * 1000))
            module.send("STOP\n")
            #expect(module.expect("703 STOP\n") == "703 STOP\n")
            onsets.append((moment, onset))
            // The cut is over once the newest 200 ms recorded are silent.
            #expect(recording.waitForSilence(milliseconds: 200, within: 10), "silence after the STOP")
        }
        #expect(module.quit() == 0)
    }
    let samples = monitor.finish()
    let heardAgain = finishSecond()
    if let keep = getenv("UTTER_KEEP_STOPS") {
        // For a closer look: what was heard, the unstopped message, and where each stopped one began.
        let name = String(cString: keep) + "-\(server)-\(path)"
        SoundFileContents.writeWAV(samples, sampleRate: rate, to: name + ".wav")
        SoundFileContents.writeWAV(reference, sampleRate: rate, to: name + ".reference.wav")
        SoundFileContents.writeWAV(referenceAfterYes, sampleRate: rate, to: name + ".reference-after-yes.wav")
        writeFile(name + ".onsets", onsets.map { "\($0.1)" }.joined(separator: "\n") + "\n")
        SoundFileContents.writeWAV(heardAgain, sampleRate: rate, to: name + ".again.wav")
    }
    // Where the second recording is: it began later, and the first sound of both is the first message's.
    let firstOffset =
        (samples.firstIndex { abs(Int32($0)) >= audible } ?? 0)
        - (heardAgain.firstIndex { abs(Int32($0)) >= audible } ?? 0)
    var cuts: [StopCut] = []
    for (moment, onset) in onsets {
        // The sound's end: its last sample that is not silence before 150 ms of silence.
        let afterYes = moment.before == .ranDry
        guard
            let judged = judgeCut(
                samples, onset: onset, silence: rate * 150 / 1000, reference: afterYes ? referenceAfterYes : reference,
                referenceOnset: afterYes ? referenceAfterYesOnset : referenceOnset)
        else {
            unjudged.append("\(moment.before) +\(moment.afterSound) ms: no end in the recording")
            continue
        }
        var cut = StopCut(
            moment: "\(moment.before)", afterSound: moment.afterSound, end: judged.end, gain: judged.gain,
            lastMillisecond: judged.lastMillisecond, match: judged.match, naturalEnd: judged.naturalEnd)
        if cut.isHard || cut.isUnmatched {
            // Heard again: where the second recorder heard this message begin, and its cut there.
            if let again = locate(onset, of: samples, in: heardAgain, offset: firstOffset),
                let judgedAgain = judgeCut(
                    heardAgain, onset: again, silence: rate * 150 / 1000,
                    reference: afterYes ? referenceAfterYes : reference, referenceOnset: afterYes ? referenceAfterYesOnset : referenceOnset)
            {
                let second = StopCut(
                    moment: cut.moment, afterSound: cut.afterSound, end: judgedAgain.end, gain: judgedAgain.gain,
                    lastMillisecond: judgedAgain.lastMillisecond, match: judgedAgain.match,
                    naturalEnd: judgedAgain.naturalEnd, heardAgain: true)
                if !second.isHard && !second.isUnmatched {
                    print("  the first recording lost samples at \(cut); the second heard \(second)")
                    cut = second
                } else {
                    print("  heard alike by the second recorder: \(second)")
                }
            } else {
                print("  \(cut): not found in the second recording (\(heardAgain.count) samples)")
            }
        }
        cuts.append(cut)
    }
    return (cuts, unjudged)
}

/// Where the sound at `index` of `heard` is in `other`, another recording of the same sink begun
/// at another moment: the 20 ms from `index` looked for within 100 ms of where `offset` puts them
/// (a recorder loses at most a few cycles of a few milliseconds). Nil unless it is there (a
/// normalized correlation of 0.99 or more: the two recorders hear the same samples).
func locate(_ index: Int, of heard: [Int16], in other: [Int16], offset: Int) -> Int? {
    let length = 20 * millisecond
    guard index >= 0, index + length <= heard.count else { return nil }
    var best = (index: 0, correlation: 0.0)
    heard.withUnsafeBufferPointer { first in
        other.withUnsafeBufferPointer { second in
            var energy = 0.0
            for k in 0..<length { energy += Double(first[index + k]) * Double(first[index + k]) }
            let predicted = index - offset
            for start in max(predicted - 100 * millisecond, 0)...max(predicted + 100 * millisecond, 0) {
                guard start + length <= second.count else { break }
                let correlation = normalizedCorrelation(first, index, second, start, count: length, firstEnergy: energy)
                if correlation > best.correlation { best = (start, correlation) }
            }
        }
    }
    return best.correlation >= 0.99 ? best.index : nil
}

@Suite(.serialized, .timeLimit(.minutes(4)))
struct StopFadeTests {
    // Every STOP fades, whatever the stream went through before it: the first of a fresh module
    // (a stream just made, in its first 100 ms of playback), one right after the stream was
    // uncorked, one after it ran dry, one mid-sentence.
    @Test(arguments: nativePaths)
    func `every STOP of speech fades out on a native stream, the first of a fresh module too`(
        server: SoundServerKind, path: PlaybackPath
    ) throws {
        let (cuts, unjudged) = try stopCuts(server: server, path: path)
        report("\(server) \(path), the 20 cuts:")
        cuts.forEach { print("  \($0)") }
        #expect(unjudged.isEmpty, "STOPs not judged: \(unjudged)")
        #expect(cuts.count == 20)
        let unmatched = cuts.filter(\.isUnmatched)
        #expect(unmatched.isEmpty, "cuts whose sound did not match the unstopped speech: \(unmatched)")
        let hard = cuts.filter(\.isHard)
        #expect(hard.isEmpty, "cuts not faded: \(hard)")
    }
}

/// The judge itself, on a tone whose every cut is known: it must tell a cut from a fade.
struct StopJudgeTests {
    /// 100 ms of silence, then a second of a voice-like sound: a 1 kHz formant struck at every
    /// pitch period and dying away within it, the pitch near 180 Hz with a vibrato (no two periods
    /// alike), then silence.
    private let reference: [Int16] = {
        var phase = 0.0
        let tone = (0..<rate).map { index -> Int16 in
            let time = Double(index) / Double(rate)
            phase += (180 + 20 * sin(2 * Double.pi * 5 * time)) / Double(rate)
            let sinceStrike = phase - phase.rounded(.down)
            return Int16(12000 * exp(-1.5 * sinceStrike) * sin(2 * Double.pi * 1000 * time))
        }
        return [Int16](repeating: 0, count: rate / 10) + tone + [Int16](repeating: 0, count: rate / 2)
    }()

    /// The reference stopped `seconds` into its sound over `fade` samples of smoothstep.
    private func stopped(at seconds: Double, fade: Int) -> [Int16] {
        let end = rate / 10 + Int(seconds * Double(rate))
        var heard = Array(reference[..<end])
        for index in 0..<fade {
            let u = Double(index + 1) / Double(fade)
            let level = 1 - u * u * (3 - 2 * u)
            heard[heard.count - fade + index] = Int16(Double(heard[heard.count - fade + index]) * level)
        }
        return heard + [Int16](repeating: 0, count: rate / 2)
    }

    private func judged(_ heard: [Int16]) throws -> (gain: Double, naturalEnd: Bool) {
        let onset = try #require(heard.firstIndex { abs(Int32($0)) >= audible })
        let referenceOnset = try #require(reference.firstIndex { abs(Int32($0)) >= audible })
        let cut = try #require(
            judgeCut(heard, onset: onset, silence: rate * 150 / 1000, reference: reference, referenceOnset: referenceOnset))
        return (cut.gain, cut.naturalEnd)
    }

    @Test func `a sound stopped dead keeps its level to the end and is a cut`() throws {
        let cut = try judged(stopped(at: 0.43, fade: 0))
        #expect(cut.gain > 0.8 && !cut.naturalEnd, "\(cut)")
    }

    @Test func `a sound faded over 4 ms keeps little in its last millisecond`() throws {
        let cut = try judged(stopped(at: 0.43, fade: 4 * millisecond))
        #expect(cut.gain < 0.3 && !cut.naturalEnd, "\(cut)")
    }

    @Test func `a sound that ends where the unstopped one ends was not cut`() throws {
        let cut = try judged(stopped(at: 1.0, fade: 0))
        #expect(cut.naturalEnd, "\(cut)")
    }
}
