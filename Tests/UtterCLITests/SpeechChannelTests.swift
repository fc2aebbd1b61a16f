import JapaneseReading
import Testing
import UtterKit

@testable import UtterCLI

/// What the speech-dispatcher channel sends, and what --follow writes: pure values.
@Suite struct SpeechChannelTests {
    @Test func `words are found between spaces, and between CJK punctuation, without punctuation around them`() {
        func words(_ text: String) -> [String] { SpokenWords.ranges(in: text).map { String(text[$0]) } }
        #expect(words("  \"Hello,\" she said — aujourd'hui!  ") == ["Hello", "she", "said", "aujourd'hui"])
        #expect(words("こんにちは、元気ですか。「はい」") == ["こんにちは", "元気ですか", "はい"])
        #expect(words("你好！世界？") == ["你好", "世界"])
        // With MeCab, Japanese is cut into the words Utter's engine reports for it.
        let reader = try? JapaneseReader()
        #expect(reader != nil, "the Japanese dictionary is installed here")
        let text = "こんにちは、元気ですか。Hello 3人"
        #expect(
            SpokenWords.ranges(in: text, reader: reader).map { String(text[$0]) }
                == ["こんにちは", "元気", "です", "か", "Hello", "3人"])
        #expect(words(" … ") == [])
    }

    @Test func `the server gets a mark before each word, the text escaped, and the delays as breaks`() {
        var utterance = Utterance(text: "Tom & Jerry <3")
        utterance.preDelay = 0.25
        utterance.postDelay = 1
        let message = SpeechDispatcherChannel.message(for: utterance)
        #expect(
            message.ssml
                == "<speak><break time=\"250ms\"/><mark name=\"utter-word-0\"/>Tom &amp; <mark name=\"utter-word-1\"/>Jerry <mark name=\"utter-word-2\"/>&lt;3<break time=\"1000ms\"/></speak>"
        )
        #expect(message.words.map { String(utterance.text[$0]) } == ["Tom", "Jerry", "<3"])
        var ssml = Utterance(ssml: "<speak version=\"1.0\">Hi <mark name=\"m\"/>there</speak>")
        ssml.postDelay = 0.5
        #expect(
            SpeechDispatcherChannel.message(for: ssml).ssml
                == "<speak version=\"1.0\">Hi <mark name=\"m\"/>there<break time=\"500ms\"/></speak>")
    }

    @Test func `follow writes words as they come: revealed on a terminal, timed lines in a pipe`() {
        let text = "One, two three."
        let ranges = SpokenWords.ranges(in: text)
        var terminal = WordFollower(text: text, interactive: true)
        terminal.start(at: 1_000)
        #expect(ranges.map { terminal.heard($0, at: 2_000) } == ["One", ", two", " three"])
        #expect(terminal.finish() == ".\n")
        var pipe = WordFollower(text: text, interactive: false)
        pipe.start(at: 5_000_000_000)
        #expect(pipe.heard(ranges[0], at: 5_000_000_000) == "0.000\tOne\n")
        #expect(pipe.heard(ranges[1], at: 6_234_600_000) == "1.235\ttwo\n")
        #expect(pipe.heard(ranges[0], at: 6_300_000_000) == "", "a word heard again after a resume is not repeated")
        #expect(pipe.heard(ranges[2], at: 17_000_000_000) == "12.000\tthree\n")
        #expect(pipe.finish() == "")
    }
}
