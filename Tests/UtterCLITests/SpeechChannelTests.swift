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
                == "<speak><break time=\"250ms\"/><mark name=\"utter-word-0\"/>Tom <mark name=\"utter-word-1\"/>&amp; <mark name=\"utter-word-2\"/>Jerry <mark name=\"utter-word-3\"/>&lt;3<break time=\"1000ms\"/></speak>"
        )
        // "&" is a word: the engine says it ("and"), and it is revealed as one.
        #expect(message.words.map { String(utterance.text[$0]) } == ["Tom", "&", "Jerry", "<3"])
        var ssml = Utterance(ssml: "<speak version=\"1.0\">Hi <mark name=\"m\"/>there</speak>")
        ssml.postDelay = 0.5
        #expect(
            SpeechDispatcherChannel.message(for: ssml).ssml
                == "<speak version=\"1.0\">Hi <mark name=\"m\"/>there<break time=\"500ms\"/></speak>")
    }

    @Test func `follow writes words as they come: revealed on a terminal, timed lines in a pipe`() {
        let text = "One, two three."
        let ranges = SpokenWords.ranges(in: text)
        var terminal = WordFollower(text: text, format: nil, interactive: true)
        terminal.start(at: 1_000)
        #expect(ranges.map { terminal.heard($0, at: 2_000) } == ["One", ", two", " three"])
        #expect(terminal.finish(at: 3_000) == ".\n")
        var pipe = WordFollower(text: text, format: nil, interactive: false)
        pipe.start(at: 5_000_000_000)
        #expect(pipe.heard(ranges[0], at: 5_000_000_000) == "0.000\tOne\n")
        #expect(pipe.heard(ranges[1], at: 6_234_600_000) == "1.235\ttwo\n")
        #expect(pipe.heard(ranges[0], at: 6_300_000_000) == "", "a word heard again after a resume is not repeated")
        #expect(pipe.heard(ranges[2], at: 17_000_000_000) == "12.000\tthree\n")
        #expect(pipe.finish(at: 18_000_000_000) == "")
    }

    @Test func `the words of a text are its words, punctuation inside kept, around it left out`() {
        let text = "It's 9:15 — “S.H.I.E.L.D.” (at 72°F)... e-mail C++ 50% naïve 👩🏽‍💻!"
        #expect(
            SpokenWords.ranges(in: text).map { String(text[$0]) }
                == ["It's", "9:15", "S.H.I.E.L.D", "at", "72°F", "e-mail", "C++", "50%", "naïve", "👩🏽‍💻"])
    }

    @Test func `tokens are written whole, those with no word of their own with the next one`() {
        let text = "Wait — It's 9:15. Done ..."
        let words = SpokenWords.ranges(in: text)
        #expect(words.map { String(text[$0]) } == ["Wait", "It's", "9:15", "Done"])
        var follower = WordFollower(text: text, format: .tokens)
        follower.start(at: 0)
        #expect(follower.heard(words[0], at: 100_000_000) == "0.100\tWait\n")
        #expect(follower.heard(words[1], at: 300_000_000) == "0.300\t—\n0.300\tIt's\n")
        #expect(follower.heard(words[2], at: 700_000_000) == "0.700\t9:15.\n")
        #expect(follower.heard(words[3], at: 900_000_000) == "0.900\tDone\n")
        #expect(follower.finish(at: 1_200_000_000) == "1.200\t...\n")
    }

    @Test func `json lines give each word with its UTF-16 and byte ranges and its time`() {
        let text = "naïve \"👍🏽\" ok"
        let words = SpokenWords.ranges(in: text)
        var follower = WordFollower(text: text, format: .json)
        follower.start(at: 0)
        #expect(follower.heard(words[0], at: 250_000_000) == "{\"word\":\"naïve\",\"utf16\":[0,5],\"bytes\":[0,6],\"time\":0.250}\n")
        #expect(follower.heard(words[1], at: 500_000_000) == "{\"word\":\"👍🏽\",\"utf16\":[7,11],\"bytes\":[8,16],\"time\":0.500}\n")
        #expect(follower.heard(words[2], at: 750_000_000) == "{\"word\":\"ok\",\"utf16\":[13,15],\"bytes\":[18,20],\"time\":0.750}\n")
        #expect(follower.finish(at: 800_000_000) == "")
    }
}
