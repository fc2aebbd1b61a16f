import Glibc
import Playback
import TestSupport
import Testing

@testable import Speech

/// How a segment's markup ends when it reaches libespeak-ng: `</speak>` becomes `</s>`, so that
/// the library does not read its voice and dictionary again after every segment.
@Suite(.serialized)
struct EspeakClosingTagTests {
    static let espeakNG = "/usr/bin/espeak-ng"

    /// libespeak-ng's audio for `ssml` in the espeak-ng command (a fresh process: within one
    /// process each call's samples differ a little from the last's, by state the library keeps).
    static func render(_ ssml: String, endPause: Bool, in folder: TemporaryFolder, as name: String) throws
        -> SoundFileContents
    {
        let path = folder.file(name)
        let child = try Child(
            [espeakNG, "-v", "en-US", "-m"] + (endPause ? [] : ["-z"]) + ["-w", path, ssml],
            environment: ["PATH=/usr/bin:/bin"], output: .null)
        #expect(child.wait(seconds: 30) && child.terminationStatus == 0, "espeak-ng \(ssml)")
        return try #require(SoundFileContents(path: path), "no sound file for \(ssml)")
    }

    /// What the rewriting relies on, in the library itself: a stray `</s>` where `</speak>`
    /// was ends the text with the same sound, end pause included.
    @Test(arguments: [
        "<speak>Hello world.</speak>",
        "<speak>Hello world</speak>",
        "<speak>Hello, <mark name=\"a\"/>world. Again<break time=\"100ms\"/> and<mark name=\"b\"/></speak>",
        "<speak>One. Two? Three!</speak>",
        "<speak><prosody rate=\"fast\">Quick text</prosody></speak>",
        "<speak><voice name=\"en-GB\">British</voice> text</speak>",
        "<speak><s xml:lang=\"de\">Guten Tag</s></speak>",
    ])
    func `libespeak-ng ends a text closed by a stray sentence end as one closed by its speak tag`(ssml: String)
        throws
    {
        let rewritten = EspeakEngine.closedWithoutVoiceReload(ssml)
        #expect(rewritten == String(ssml.dropLast("</speak>".count)) + "</s>")
        let folder = TemporaryFolder()
        for endPause in [true, false] {
            let asWritten = try Self.render(ssml, endPause: endPause, in: folder, as: "written.wav")
            let closed = try Self.render(rewritten, endPause: endPause, in: folder, as: "closed.wav")
            #expect(closed.duration > 0.5, "\(closed.duration) s of \(ssml)")
            #expect(rootMeanSquare(closed.samples) > 500, "near silence for \(ssml)")
            #expect(
                closed.samples == asWritten.samples,
                "\(closed.samples.count) against \(asWritten.samples.count) samples, end pause \(endPause)")
        }
    }

    @Test func `a speak element with a language keeps its closing tag, as does anything else`() {
        for ssml in [
            "<speak xml:lang=\"de\">Guten Tag</speak>", "<speak>Hello</speak> ", "Hello", "<speak>Hello</s>", "",
        ] {
            #expect(EspeakEngine.closedWithoutVoiceReload(ssml) == ssml)
        }
        #expect(EspeakEngine.closedWithoutVoiceReload("<speak>Hi</speak>") == "<speak>Hi</s>")
        #expect(EspeakEngine.closedWithoutVoiceReload("<speak></speak>") == "<speak></s>")
    }

    /// Bytes this thread has read from files so far (libespeak-ng reads on the calling thread).
    static func bytesReadByThisThread() throws -> Int {
        let line = try #require(readText("/proc/thread-self/io").split(separator: "\n").first { $0.hasPrefix("rchar:") })
        return try #require(Int(line.dropFirst("rchar:".count).drop { $0 == " " }))
    }

    static func synthesize(_ engine: EspeakEngine, _ ssml: String) -> [Int16] {
        var samples: [Int16] = []
        engine.synthesize(ssml: ssml, pauseAtEnd: true) { chunk, _ in
            samples += chunk
            return true
        }
        return samples
    }

    @Test func `a voice's dictionary is read when the voice is chosen, not again after every segment`() async throws {
        await EngineTurns.take()
        defer { EngineTurns.release() }
        let engine = try EspeakEngine()
        var read = try Self.bytesReadByThisThread()
        try engine.setVoice("gmw/en-US", variant: nil)
        engine.apply(EngineParameters())
        let choosing = try Self.bytesReadByThisThread() - read
        // en_dict is 167 KB.
        #expect(choosing > 100_000, "choosing the voice read \(choosing) bytes")

        for segment in ["<speak>The first segment.</speak>", "<speak>And the second one.</speak>"] {
            read = try Self.bytesReadByThisThread()
            let samples = Self.synthesize(engine, segment)
            let reading = try Self.bytesReadByThisThread() - read
            #expect(samples.count > 11_025 && rootMeanSquare(samples) > 500)
            #expect(reading < 16_384, "\(segment) read \(reading) bytes")
        }
        // The closing tag as written (white space after it keeps it so) reads it all again.
        read = try Self.bytesReadByThisThread()
        _ = Self.synthesize(engine, "<speak>The third segment.</speak>\n")
        let asWritten = try Self.bytesReadByThisThread() - read
        #expect(asWritten > 100_000, "the closing tag as written read \(asWritten) bytes")
    }
}
