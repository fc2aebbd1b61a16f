// The real Orca screen reader, headless, speaking through a private speech-dispatcher whose only
// module is sd_utter (testing.md §4). Clients/orca_stack.py starts the whole stack inside its own
// PID namespace and acts as the user; this test judges what reached the module and what it played.
import Foundation
import OnnxRuntime
import System
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Orca through speech-dispatcher and sd_utter")
struct OrcaTests {
    @Test("focus, key and character echo, Say All and reading by character reach sd_utter and are heard")
    func orcaEndToEnd() async throws {
        try await runOrca(voice: [])
    }

    @Test("Orca on a Piper voice: Say All gets every mark as heard, the model's speech is played")
    func orcaOnAPiperVoice() async throws {
        let joe = try joeVoiceFiles()
        let runtime = try installedOnnxRuntime()
        let folder = try await runOrca(voice: ["joe", joe.model, runtime.libraryPath])
        guard let folder else { return }  // failed and recorded; the folder is kept
        let serverLog = readText(folder + "/log/speech-dispatcher.log")
        #expect(serverLog.contains("synthesis_voice=joe"), "Orca did not choose the voice joe")
        let audio = (try? Data(contentsOf: URL(fileURLWithPath: folder + "/capture.raw"))) ?? Data()
        let samples = audio.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        // Piper's speech is normalised to full scale; espeak-ng's peaks are lower (about 23,000).
        #expect((samples.map { abs(Int($0)) }.max() ?? 0) >= 30000, "not the model's speech")
        _ = try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs the stack (with `voice`: its name, model and ONNX Runtime library) and checks what
    /// every run must show; the scratch folder when all passed and it is kept for more checks.
    @discardableResult
    private func runOrca(voice: [String]) async throws -> String? {
        let folder = try scratchFolder("utter-orca")
        let module = try Paths.moduleBinary()
        let script = Paths.testsDirectory.appendingPathComponent("Clients/orca_stack.py").path
        let output = folder + "/stack.out"
        // `--kill-child`: when unshare dies, so does everything in the namespace (Xvfb, D-Bus,
        // AT-SPI, speech-dispatcher, the module, the window and Orca).
        let stack = try Child(
            try Paths.program("unshare"),
            ["--pid", "--fork", "--mount-proc", "--kill-child", Paths.python, script, folder, module] + voice,
            environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "LANG": "C.UTF-8"], output: output)
        if await !stack.wait(timeout: .seconds(240)) {
            stack.signal(SIGKILL)
            await stack.wait(timeout: .seconds(10))
            Issue.record("the Orca stack stalled for 240 s\n\(diagnostics(folder))")
            return nil
        }
        let lines = readText(output).split(separator: "\n")
        let errors = lines.filter { $0.hasPrefix("error ") }
        #expect(errors.isEmpty && stack.terminationStatus == 0, "\(errors)\n\(diagnostics(folder))")
        let steps = lines.filter { $0.hasPrefix("step ") }.map { $0.split(separator: " ")[1] }
        #expect(steps == ["stack", "orca-started", "focus", "echo", "sayall", "characters"], "steps: \(steps)")
        #expect(lines.last == "done")

        let said = lines.filter { $0.hasPrefix("said ") }.map { $0.dropFirst(5) }
        // Orca 43 sends key echo as SSML, the character it deletes and the one under the caret as CHAR.
        #expect(said.contains("SPEAK Tangerine button push button."), "\(said)")
        #expect(said.contains("SPEAK x") && said.contains("SPEAK q") && said.contains("SPEAK tab"), "\(said)")
        #expect(said.contains("CHAR h"), "\(said)")
        report("Orca: \(steps.count) steps, \(said.count) messages: \(said.joined(separator: " | "))")

        // Say All depends on marks: every mark of each Say All sentence came back to the server,
        // in order (other messages may be cut short by the next key press, as Orca intends).
        let serverLog = readText(folder + "/log/speech-dispatcher.log")
        let reported = serverLog.components(separatedBy: "Event from output module while speaking: |700-").dropFirst()
            .map { String($0.prefix { $0 != "\n" }) }
        let sent = serverLog.components(separatedBy: "Command sent to output module: |<speak>").dropFirst()
            .map { String($0.prefix { $0 != "|" }) }
        var sayAllMarks = 0
        for sentence in ["The first sentence", "Then a second one", "A third sentence keeps", "Finally the closing"] {
            guard let markup = sent.first(where: { $0.hasPrefix("<mark name=\"0:") && plain($0).hasPrefix(sentence) })
            else {
                Issue.record("Say All never sent \(sentence.debugDescription)")
                continue
            }
            let names = markup.components(separatedBy: "<mark name=\"").dropFirst().map {
                String($0.prefix { $0 != "\"" })
            }
            sayAllMarks += names.count
            let found = (0...max(0, reported.count - names.count)).contains {
                Array(reported.dropFirst($0).prefix(names.count)) == names
            }
            #expect(found, "the marks of \(sentence.debugDescription), \(names), were not all reported in order")
        }
        #expect(sayAllMarks >= 28, "Say All sent \(sayAllMarks) marks")

        let moduleLog = readText(folder + "/log/utter.log")
        // A neural model slower to load than a listener waits (a second; the sanitizer builds take
        // longer) has its first messages spoken by espeak-ng, said in the log: that is the voice's
        // documented behaviour, not a problem; that joe spoke afterwards is checked by the caller.
        let problems = moduleLog.split(separator: "\n").filter {
            ($0.contains(" error") || $0.contains(" critical") || $0.contains(" warning"))
                && !($0.contains("neural voice unavailable") && $0.contains("is still loading after"))
        }
        #expect(problems.isEmpty, "\(problems)")

        // What the module played: S16 mono at 22,050 Hz through the ALSA file device.
        let audio = (try? Data(contentsOf: URL(fileURLWithPath: folder + "/capture.raw"))) ?? Data()
        let samples = audio.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(samples.count > 10 * Audio.rate, "only \(Audio.seconds(samples.count)) of speech played")
        #expect(rootMeanSquare(samples) > 300, "the played audio is silent")
        guard errors.isEmpty && problems.isEmpty else { return nil }
        if voice.isEmpty { _ = try? FileManager.default.removeItem(atPath: folder) }
        return folder
    }

    /// `markup` without its tags, words separated by single spaces.
    private func plain(_ markup: String) -> String {
        var text = ""
        var inTag = false
        for character in markup {
            if character == "<" {
                inTag = true
            } else if character == ">" {
                inTag = false
                text.append(" ")
            } else if !inTag {
                text.append(character)
            }
        }
        return text.split(separator: " ").joined(separator: " ")
    }

    private func scratchFolder(_ prefix: String) throws -> String {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw RigError("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        return String(cString: created)
    }

    /// The ends of the stack's logs, for a failure message.
    private func diagnostics(_ folder: String) -> String {
        ["stack.out", "orca.out", "speechd.out", "atspi.log", "window.err", "xvfb.log", "log/utter.log"].map { name in
            let text = (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? "(none)"
            return "--- \(name) (scratch folder \(folder), kept)\n"
                + text.split(separator: "\n").suffix(25).joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
