// End-to-end tests: the real speech-dispatcher 0.11.4 drives sd_utter, real clients (spd-say,
// python3-speechd) talk to the server, and the module's audio is captured from ALSA.
// No timing asserts: every wait has a deadline only so that a hang fails instead of blocking.
import Foundation
import TestSupport
import Testing

@Suite("speech-dispatcher with sd_utter")
struct ServerTests {

    @Test("spd-say -w speaks real audio through the module's ALSA device")
    func spdSayCapturesAudio() async throws {
        try await withServer("spd-say", device: .unpaced) { rig in
            let said = try await rig.spdSay([
                "-o", "utter", "-w",
                "Utter is speaking through the capture device. This sentence lasts well over half a second.",
            ])
            rig.check(said.succeeded, "spd-say -w failed: \(said)")
            await rig.shutdown()
            let samples = try await rig.capturedSamples()
            let rms = rootMeanSquare(samples)
            rig.check(
                samples.count >= Audio.rate / 2,
                "captured only \(samples.count) samples (\(Audio.seconds(samples.count))), want ≥ 0.5 s")
            rig.check(rms > 300, "captured audio is (nearly) silent: RMS \(rms)")
        }
    }

    @Test("spd-say -L lists the module's voices, English among them")
    func spdSayListsVoices() async throws {
        try await withServer("voices", device: .unpaced) { rig in
            let listed = try await rig.spdSay(["-o", "utter", "-L"])
            guard rig.check(listed.succeeded, "spd-say -L failed: \(listed)") else { return }
            // spd-say prints a NAME/LANGUAGE/VARIANT header, then one row per voice, each field
            // right-aligned in 25 columns ("%25s%25s%25s"). Names may contain spaces; language and
            // variant are the last two columns. A variant of 25+ characters is glued to the
            // language by spd-say itself (sd_espeak-ng: "afHalf-LifeAnnouncementSystem"); such
            // rows are counted but not parsed.
            var voices: [(name: String, language: String, variant: String)] = []
            var glued: [String] = []
            for line in listed.stdout.split(separator: "\n") {
                let cols = line.split(separator: " ").map(String.init)
                if cols == ["NAME", "LANGUAGE", "VARIANT"] { continue }
                guard cols.count >= 3 else {
                    glued.append(String(line))
                    continue
                }
                voices.append(
                    (cols.dropLast(2).joined(separator: " "), cols[cols.count - 2], cols[cols.count - 1]))
            }
            rig.check(
                glued.count * 10 <= voices.count,
                "\(glued.count) of \(glued.count + voices.count) voice rows lack name/language/variant: "
                    + "\(glued.prefix(5))")
            rig.check(!voices.isEmpty, "no voices listed:\n\(listed.stdout)")
            let english = voices.filter { $0.language.lowercased().hasPrefix("en") }
            rig.check(
                !english.isEmpty,
                "no English voice (language tag en…) among \(voices.count): \(voices.prefix(10))")
            rig.check(
                voices.allSatisfy { !$0.name.isEmpty && !$0.language.isEmpty && !$0.variant.isEmpty },
                "a voice has an empty field")
        }
    }

    @Test("SSML client marks: BEGIN, every mark once and in order (also after a full stop), END, then nothing")
    func ssmlMarksInOrder() async throws {
        try await withServer("marks", device: .unpaced) { rig in
            let ssml =
                #"<speak>First <mark name="m1"/>second. <mark name="m2"/>Third sentence. <mark name="m3"/>End.</speak>"#
            let s = try await rig.session("marks", [ssml])
            rig.check(s.ok, "client failed: \(s.errors) status \(s.finished.status)")
            let message = s.spoken(0)
            let events = s.events(of: message)
            let expected = [
                Session.Event(message: message ?? -1, type: "begin", mark: nil),
                Session.Event(message: message ?? -1, type: "index_marks", mark: "m1"),
                Session.Event(message: message ?? -1, type: "index_marks", mark: "m2"),
                Session.Event(message: message ?? -1, type: "index_marks", mark: "m3"),
                Session.Event(message: message ?? -1, type: "end", mark: nil),
            ]
            rig.check(events == expected, "events \(events), want \(expected)")
            rig.check(
                s.events.count == events.count,
                "events for other messages / after END: \(s.events)")
            await rig.shutdown()
            let samples = try await rig.capturedSamples()
            rig.check(samples.count >= Audio.rate / 2, "captured only \(Audio.seconds(samples.count))")
        }
    }

    static let longText = (1...30).map {
        "This is sentence number \($0) of a long message that nobody will hear to the end."
    }.joined(separator: " ")

    @Test("cancel after BEGIN: CANCEL and no END; the next message speaks normally")
    func cancelThenSpeak() async throws {
        try await withServer("cancel", device: .paced) { rig in
            let s = try await rig.session(
                "cancel", [Self.longText, "The next message is spoken normally."])
            rig.check(s.ok, "client failed: \(s.errors) status \(s.finished.status)")
            let first = s.events(of: s.spoken(0))
            rig.check(
                first.map(\.type) == ["begin", "cancel"],
                "cancelled message: events \(first), want [begin, cancel]")
            let second = s.events(of: s.spoken(1))
            rig.check(
                second.map(\.type) == ["begin", "end"],
                "message after the cancel: events \(second), want [begin, end]")
            await rig.shutdown()
            // Sample domain, not timing: the long message (over a minute of speech) was cut short.
            let samples = try await rig.capturedSamples()
            rig.check(
                samples.count < 30 * Audio.rate,
                "\(Audio.seconds(samples.count)) captured: the cancelled message kept playing")
            rig.check(rootMeanSquare(samples) > 300, "captured audio is silent")
        }
    }

    static let sentences = [
        "The first sentence of this message is here.",
        "A second sentence follows the first one.",
        "The third sentence talks about nothing in particular.",
        "Here comes the fourth sentence of the text.",
        "The fifth sentence is almost the last one.",
        "And this is the sixth and final sentence.",
    ]

    @Test("pause after BEGIN, resume: PAUSE, RESUME, END, and every sentence heard exactly once")
    func pauseResumeLosesNothing() async throws {
        let text = Self.sentences.joined(separator: " ")
        // Reference: the same text uninterrupted, on the unpaced device (same samples, fast).
        var reference = 0
        try await withServer("pause-reference", device: .unpaced) { rig in
            let s = try await rig.session("speak", [text])
            let events = s.events(of: s.spoken(0)).map(\.type)
            rig.check(
                s.ok && events == ["begin", "end"], "reference run: \(s.errors) events \(events)")
            await rig.shutdown()
            reference = try await rig.capturedSamples().count
            rig.check(reference >= Audio.rate, "reference run captured \(Audio.seconds(reference))")
        }
        try await withServer("pause", device: .paced) { rig in
            let s = try await rig.session("pause", [text])
            rig.check(s.ok, "client failed: \(s.errors) status \(s.finished.status)")
            let events = s.events(of: s.spoken(0)).map(\.type)
            rig.check(
                events == ["begin", "pause", "resume", "end"],
                "events \(events), want [begin, pause, resume, end]")
            rig.check(s.events.count == events.count, "events for other messages: \(s.events)")
            await rig.shutdown()
            let paused = try await rig.capturedSamples().count
            // Nothing lost: at least the uninterrupted length (minus 0.5 s of slack for silence
            // at the pause point); nothing repeated beyond one sentence (server resume quirks).
            let slack = Audio.rate / 2
            let oneSentence = reference / Self.sentences.count
            let summary =
                "pause test: uninterrupted \(Audio.seconds(reference)), paused+resumed \(Audio.seconds(paused))"
            rig.note(summary)
            report(summary)
            rig.check(
                paused >= reference - slack,
                "paused+resumed run captured \(Audio.seconds(paused)), uninterrupted "
                    + "\(Audio.seconds(reference)): speech was lost")
            rig.check(
                paused <= reference + oneSentence + slack,
                "paused+resumed run captured \(Audio.seconds(paused)), uninterrupted "
                    + "\(Audio.seconds(reference)): more than one sentence repeated")
        }
    }
}
