import Glibc
import TestSupport
import Testing

/// `utter play`: scenarios rendered and checked in the sample domain, refused when wrong, and
/// played in a pipe with their slide command.
@Suite struct PlayCommandTests {
    private var utter: String { utterPath }

    private static let sentence = "The quick brown fox jumps over the lazy dog, and then it rests in the warm sun."

    /// Renders `json` with `utter play -o` and reads the file back.
    private func render(_ json: String, in folder: TemporaryFolder, name: String) throws -> SoundFileContents {
        let scenario = folder.file(name + ".json")
        let output = folder.file(name + ".wav")
        writeFile(scenario, json)
        let run = ChildProcess.run([utter, "play", "-o", output, scenario])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasPrefix("Rendered "), "\(run.standardOutput)")
        return try #require(SoundFileContents(path: output))
    }

    @Test func `a pitch of 1.6 renders a voice measurably higher than 1.0`() throws {
        let folder = TemporaryFolder()
        var medians: [Double] = []
        for pitch in ["1.0", "1.6"] {
            let file = try render(
                #"{"pitch": \#(pitch), "actions": [{"type": "speak", "text": "\#(Self.sentence)"}]}"#, in: folder,
                name: "pitch-\(pitch)")
            let estimates = fundamentalFrequencies(file.samples, sampleRate: file.sampleRate)
            #expect(estimates.count > 50, "voiced frames at pitch \(pitch): \(estimates.count)")
            medians.append(estimates.sorted()[estimates.count / 2])
        }
        // espeak-ng's pitch is logarithmic (1.6 is 68 on its 0…100 scale, 50 normal): measured
        // 100 Hz and 142 Hz for its default voice.
        #expect(medians[1] / medians[0] > 1.25 && medians[1] / medians[0] < 1.8, "\(medians) Hz")
    }

    @Test func `postDelay and waits are silence of exactly their length, where they belong`() throws {
        let folder = TemporaryFolder()
        let plain = try render(
            #"{"actions": [{"type": "speak", "text": "First."}, {"type": "speak", "text": "Second."}]}"#, in: folder,
            name: "plain")
        let spaced = try render(
            """
            {"postDelay": 0, "actions": [
              {"type": "speak", "text": "First.", "postDelay": 1.5},
              {"type": "pause"},
              {"type": "changeSlidePage", "page": 2},
              {"type": "wait", "seconds": 2},
              {"type": "speak", "text": "Second."},
              {"type": "wait", "seconds": 0.5}
            ]}
            """, in: folder, name: "spaced")
        #expect(spaced.sampleRate == 22050 && plain.sampleRate == 22050)
        // 1.5 s after the first speech, 2 s of wait before the second, 0.5 s at the end.
        #expect(spaced.samples.count - plain.samples.count == (15 + 20 + 5) * 2205)
        let quiet = quietRuns(spaced.samples, below: 64, atLeast: 22050 / 2 + 1)
        try #require(quiet.count == 2, "\(quiet)")
        let between = try #require(quiet.first)
        #expect(between.count >= 35 * 2205 && between.count < 40 * 2205, "\(between.count) quiet samples between")
        #expect(quiet.last?.upperBound == spaced.samples.count, "the last wait closes the file")
        #expect(rootMeanSquare(spaced.samples[..<between.lowerBound]) > 500)
        #expect(rootMeanSquare(spaced.samples[between.upperBound..<quiet.last!.lowerBound]) > 500)
    }

    @Test func `Japanese text renders as speech`() throws {
        let folder = TemporaryFolder()
        let file = try render(
            #"{"language": "ja-JP", "actions": [{"type": "speak", "text": "みなさん、こんにちは。"}]}"#, in: folder, name: "ja")
        #expect(file.duration > 1 && rootMeanSquare(file.samples) > 500, "\(file.duration) s")
    }

    @Test(arguments: [("demo.json", 4), ("demo-ja.json", 3)])
    func `the example scenarios render, with a summary of what was written`(name: String, speeches: Int) throws {
        let root = String(#filePath.dropLast("/Tests/UtterCLITests/PlayCommandTests.swift".count))
        let scenario = root + "/Examples/Scenarios/" + name
        let folder = TemporaryFolder()
        let output = folder.file("talk.ogg")
        let run = ChildProcess.run([utter, "play", "-o", output, scenario])
        #expect(run.status == 0, "\(run.standardError)")
        let file = try #require(SoundFileContents(path: output))
        #expect(file.container == "ogg" && file.duration > 8, "\(file.duration) s")
        let seconds = (file.duration * 10).rounded() / 10
        #expect(
            run.standardOutput.hasPrefix(
                "Rendered \(speeches) speeches of '\(scenario)' to '\(output)': \(seconds) s of audio in "),
            "\(run.standardOutput)")
    }

    @Test func `the presentation app's own scenario plays as written: page 0, a higher pitch, its postDelays`() throws {
        // A verbatim copy of the app's example (../shared/examples/presentation-scenario.json).
        let root = String(#filePath.dropLast("/Tests/UtterCLITests/PlayCommandTests.swift".count))
        let scenario = root + "/Examples/Scenarios/presentation-scenario.json"
        let folder = TemporaryFolder()
        let output = folder.file("talk.wav")
        let run = ChildProcess.run([utter, "play", "-o", output, scenario])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasPrefix("Rendered 3 speeches of "), "\(run.standardOutput)")
        let file = try #require(SoundFileContents(path: output))
        // Its three speeches: 0.5 s of postDelay after the first two (the file's default), none
        // after the third (its own postDelay 0), so two quiet stretches of at least 0.5 s.
        let quiet = quietRuns(file.samples, below: 64, atLeast: 22050 * 45 / 100 + 1)
        try #require(quiet.count == 2, "\(quiet) in \(file.duration) s")
        for gap in quiet {
            #expect(gap.count >= 22050 / 2 && gap.count < 22050, "\(Double(gap.count) / 22050) s between speeches")
        }
        let ordinary = Array(file.samples[..<quiet[1].lowerBound])
        let higher = Array(file.samples[quiet[1].upperBound...])
        #expect(rootMeanSquare(higher) > 500)
        // The third speech has pitch 1.6: measurably higher than the two before it.
        let pitches = [ordinary, higher].map { samples in
            let estimates = fundamentalFrequencies(samples, sampleRate: file.sampleRate).sorted()
            return estimates.isEmpty ? 0 : estimates[estimates.count / 2]
        }
        #expect(pitches[0] > 0 && pitches[1] / pitches[0] > 1.25, "\(pitches) Hz")
    }

    @Test func `a bad scenario is refused with every problem, and nothing is rendered`() {
        let folder = TemporaryFolder()
        let scenario = folder.file("bad.json")
        writeFile(
            scenario,
            """
            {
              "rate": 2,
              "actions": [
                {"type": "wait", "seconds": "soon"},
                {"type": "speak", "text": ""},
                {"type": "changeSlidePage", "page": -1}
              ],
              "presets": [{"text": "Hi", "volume": 3}]
            }
            """)
        let output = folder.file("bad.wav")
        let run = ChildProcess.run([utter, "play", "-o", output, scenario])
        #expect(run.status == 1)
        #expect(
            run.standardError == """
                Error: The scenario '\(scenario)' cannot be played (5 problems); nothing was spoken.
                rate: must be from 0 to 1, found 2 (line 2)
                actions[0].seconds: expected a number, found "soon" (line 4)
                actions[1].text: expected the text to speak, found "" (line 5)
                actions[2].page: expected a page index (0 for the first slide), "next" or "previous", found -1 (line 6)
                presets[0].volume: must be from 0 to 1, found 3 (line 8)

                """)
        #expect(readFile(output) == nil)
        writeFile(scenario, "{\"actions\": [\n  {\"type\": \"pause\"},\n]}")
        let syntax = ChildProcess.run([utter, "play", scenario])
        #expect(syntax.status == 1)
        #expect(
            syntax.standardError == """
                Error: The scenario '\(scenario)' cannot be played (it is not valid JSON); nothing was spoken.
                expected a value, found ']' (line 3, column 1)

                """)
        let missing = ChildProcess.run([utter, "play", folder.file("none.json")])
        #expect(missing.status == 1)
        #expect(
            missing.standardError
                == "Error: Cannot read the scenario '\(folder.file("none.json"))': No such file or directory.\n")
        writeFile(scenario, #"{"actions": [{"type": "wait", "seconds": 1}]}"#)
        let silent = ChildProcess.run([utter, "play", "-o", output, scenario])
        #expect(silent.status == 1)
        #expect(
            silent.standardError == "Error: The scenario '\(scenario)' speaks no text: there is nothing to render.\n")
        let both = ChildProcess.run([utter, "play", "-o", output, "--on-slide", "true", scenario])
        #expect(both.status == 64)
        #expect(
            both.standardError.hasPrefix(
                "Error: --on-slide follows a talk as it is played, and -o plays nothing: use one of them."))
    }

    @Test func `in a pipe each step is a line, pauses are passed over, and the slide command runs per page`() {
        let folder = TemporaryFolder()
        writeFile(folder.file(".asoundrc"), "pcm.!default { type null }\n")
        let scenario = folder.file("talk.json")
        writeFile(
            scenario,
            """
            {"actions": [
              {"type": "changeSlidePage", "page": 0},
              {"type": "speak", "text": "Hello."},
              {"type": "wait", "seconds": 0.2},
              {"type": "changeSlidePage", "page": "next"},
              {"type": "speak", "text": "こんにちは。", "language": "ja"},
              {"type": "pause"},
              {"type": "changeSlidePage", "page": 6}
            ]}
            """)
        let pages = folder.file("pages")
        let run = ChildProcess.run(
            [utter, "play", "--on-slide", "echo {page}:{index} >> '\(pages)'", scenario],
            environment: ["HOME=\(folder.path)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(
            run.standardOutput == """
                slide 1 (index 0)
                Hello.
                (waiting 0.2 s)
                slide 2 (index 1)
                こんにちは。
                pause passed over: no keys to go on with
                slide 7 (index 6)
                action 7 of 7 · slide 7 (index 6) · finished

                """)
        // Not waited for: the last one may still be starting when utter ends.
        var written = ""
        for _ in 0..<200 where written != "1:0\n2:1\n7:6\n" {
            usleep(10_000)
            written = readText(pages)
        }
        #expect(written == "1:0\n2:1\n7:6\n")
    }
}

/// The fundamental frequency of each voiced 46 ms frame (loud, and periodic between 60 and
/// 500 Hz): the lag of the highest normalised autocorrelation, if above 0.5.
private func fundamentalFrequencies(_ samples: [Int16], sampleRate: Int) -> [Double] {
    let size = 1024
    let signal = samples.map(Double.init)
    var estimates: [Double] = []
    for start in stride(from: 0, to: signal.count - size, by: size / 2) {
        guard rootMeanSquare(samples[start..<start + size]) > 1000 else { continue }
        var best = (correlation: 0.0, lag: 0)
        for lag in (sampleRate / 500)...(sampleRate / 60) {
            var product = 0.0
            var head = 0.0
            var tail = 0.0
            for index in start..<(start + size - lag) {
                product += signal[index] * signal[index + lag]
                head += signal[index] * signal[index]
                tail += signal[index + lag] * signal[index + lag]
            }
            let correlation = product / ((head * tail).squareRoot() + 1e-9)
            if correlation > best.correlation { best = (correlation, lag) }
        }
        if best.correlation > 0.5 { estimates.append(Double(sampleRate) / Double(best.lag)) }
    }
    return estimates
}
