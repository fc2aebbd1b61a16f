import Glibc
import TestSupport
import Testing

/// `utter`, the command built on UtterKit's Speaker, run as a user runs it.
@Suite struct CommandLineTests {
    private var utter: String { utterPath }

    @Test func `say -o renders speech into a sound file`() throws {
        let folder = TemporaryFolder()
        let path = folder.file("hello.wav")
        let run = ChildProcess.run([utter, "say", "-o", path, "Hello from the command line."])
        #expect(run.status == 0, "\(run.standardError)")
        let file = try #require(SoundFileContents(path: path))
        #expect(file.container == "wav" && file.sampleRate == 22050 && file.channels == 1)
        #expect(file.duration > 1 && file.duration < 4, "\(file.duration) s")
        #expect(rootMeanSquare(file.samples) > 500)
    }

    @Test func `say plays through a real ALSA device, here a file the test defines`() throws {
        let folder = TemporaryFolder()
        let capture = folder.file("capture.raw")
        writeFile(
            folder.file(".asoundrc"),
            "pcm.capture { type file slave.pcm \"sink\" file \"\(capture)\" format \"raw\" }\npcm.sink { type null }\n")
        let run = ChildProcess.run(
            [utter, "say", "--device", "capture", "-v", "German", "Guten Tag."],
            environment: ["HOME=\(folder.path)", "PATH=/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.standardError)")
        let bytes = readFile(capture) ?? []
        let samples = littleEndianSamples(bytes)
        #expect(samples.count > 11025, "\(samples.count) samples captured")
        #expect(rootMeanSquare(samples) > 500)
    }

    @Test func `bad requests are refused with what to do, and nothing is written`() {
        let folder = TemporaryFolder()
        let unknown = ChildProcess.run([utter, "say", "-o", folder.file("x.wav"), "-v", "Nobody", "Hi"])
        #expect(unknown.status == 1)
        #expect(unknown.standardError == "Error: No voice is called 'Nobody'. Speaker.voices (or 'utter voices') lists them.\n")
        let format = ChildProcess.run([utter, "say", "-o", folder.file("x.mp3"), "Hi"])
        #expect(format.status == 1)
        #expect(
            format.standardError
                == "Error: Cannot write '\(folder.file("x.mp3"))': its name must end with .wav, .flac, .ogg, .oga, .aiff, .au or .caf.\n"
        )
        let empty = ChildProcess.run([utter, "say", "-o", folder.file("x.wav"), ""])
        #expect(empty.status == 64)
        #expect(empty.standardError.hasPrefix("Error: Give the text to speak."))
    }

    @Test func `both programs print the version the Debian changelog names`() throws {
        let root = String(#filePath.dropLast("/Tests/UtterCLITests/CommandLineTests.swift".count))
        let changelog = try #require(readFile(root + "/packaging/debian/changelog"))
        // The first line: "utter (VERSION) DISTRIBUTION; urgency=…".
        let head = String(decoding: changelog.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let version = try #require(head.split(separator: "(").dropFirst().first?.split(separator: ")").first)
        let command = ChildProcess.run([utter, "--version"])
        #expect(command.status == 0 && command.standardOutput == "\(version)\n", "\(command)")
        let module = ChildProcess.run([modulePath(), "--version"])
        #expect(module.status == 0 && module.standardOutput == "sd_utter (Utter) \(version)\n", "\(module)")
    }
}
