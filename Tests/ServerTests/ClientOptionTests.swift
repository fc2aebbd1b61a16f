// spd-say's options through the real speech-dispatcher: each must reach sd_utter as the message
// kind or setting it stands for, and change what is heard.
import Foundation
import Testing

@Suite("spd-say options through speech-dispatcher and sd_utter")
struct ClientOptionTests {
    /// What one `spd-say -o utter -w ARGS` played, on a server of its own (the capture holds
    /// exactly one message), and the commands the server sent the module.
    struct Heard {
        var samples: [Int16]
        var commands: String
        var seconds: Double { Double(samples.count) / Double(Audio.rate) }
        var level: Double { Audio.rms(samples) }
    }

    func heard(_ arguments: [String]) async throws -> Heard {
        var result = Heard(samples: [], commands: "")
        try await withServer("spd-say-options", device: .unpaced) { rig in
            let said = try await rig.spdSay(["-o", "utter", "-w"] + arguments)
            rig.check(said.succeeded, "spd-say \(arguments) failed: \(said)")
            await rig.shutdown()
            result.samples = try await rig.capturedSamples()
            let log =
                (try? String(
                    contentsOf: rig.runDir.appendingPathComponent("log/speech-dispatcher.log"), encoding: .utf8))
                ?? ""
            result.commands = log.components(separatedBy: "Command sent to output module: |").dropFirst()
                .map { String($0.prefix { $0 != "|" }) }.joined(separator: "|")
        }
        return result
    }

    @Test("-c sends CHAR and the character is named aloud, also € and space")
    func character() async throws {
        for character in ["a", "€", "space"] {
            let heard = try await heard(["-c", character])
            #expect(heard.commands.contains("CHAR\n|\(character)|"), "\(heard.commands)")
            #expect(
                heard.level > 300 && heard.seconds > 0.2, "CHAR \(character): \(heard.seconds) s, RMS \(heard.level)")
        }
    }

    @Test("-k sends KEY and the key is named aloud, longer than its character alone")
    func key() async throws {
        let letter = try await heard(["-c", "a"])
        for key in ["shift_a", "kp-enter", "control_alt_delete"] {
            let heard = try await heard(["-k", key])
            #expect(heard.commands.contains("KEY\n|\(key)"), "\(heard.commands)")
            #expect(heard.level > 300 && heard.seconds > letter.seconds + 0.2, "KEY \(key): \(heard.seconds) s")
        }
    }

    @Test("-s sets spelling_mode and the text is spelled")
    func spelling() async throws {
        let word = try await heard(["Utter"])
        let spelled = try await heard(["-s", "Utter"])
        #expect(spelled.commands.contains("spelling_mode=on"), "\(spelled.commands)")
        #expect(spelled.seconds > word.seconds * 1.5, "spelled \(spelled.seconds) s, word \(word.seconds) s")
    }

    @Test("-x sends SSML: a break is heard as silence, a mark does no harm")
    func ssml() async throws {
        let heard = try await heard(["-x", "<speak>one <mark name=\"m\"/><break time=\"1500ms\"/> two</speak>"])
        #expect(heard.commands.contains("<mark name=\"m\"/>"), "\(heard.commands)")
        #expect((1.4...1.8).contains(longestSilence(heard.samples)), "silence \(longestSilence(heard.samples)) s")
        #expect(Audio.rms(Array(heard.samples.suffix(Audio.rate / 2))) > 100 || heard.level > 300)
    }

    @Test("-m sets punctuation_mode: all reads the punctuation that none leaves out")
    func punctuation() async throws {
        let text = "Hello, world; (yes) no!"
        let none = try await heard(["-m", "none", text])
        let all = try await heard(["-m", "all", text])
        #expect(all.commands.contains("punctuation_mode=all") && none.commands.contains("punctuation_mode=none"))
        #expect(all.seconds > none.seconds + 0.5, "all \(all.seconds) s, none \(none.seconds) s")
    }

    @Test("-i sets the volume: -50 is quieter than 50")
    func volume() async throws {
        let text = "The volume of this sentence is set by the client."
        let quiet = try await heard(["-i", "-50", text])
        let loud = try await heard(["-i", "50", text])
        #expect(quiet.commands.contains("volume=-50") && loud.commands.contains("volume=50"))
        #expect(quiet.level < loud.level * 0.5, "RMS at -50: \(quiet.level), at 50: \(loud.level)")
        #expect(abs(quiet.seconds - loud.seconds) < 0.05)
    }
}

/// The longest run of 10 ms windows below RMS 100, in seconds.
func longestSilence(_ samples: [Int16]) -> Double {
    var longest = 0
    var current = 0
    for start in stride(from: 0, to: max(0, samples.count - 220), by: 220) {
        current = Audio.rms(Array(samples[start..<(start + 220)])) < 100 ? current + 1 : 0
        longest = max(longest, current)
    }
    return Double(longest) * 0.01
}
