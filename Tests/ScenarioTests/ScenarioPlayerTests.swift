import Scenario
import Testing

/// The player event by event: what it does next, and the status line the presenter sees.
@Suite struct ScenarioPlayerTests {
    private let hello = Passage(text: "Hello there, audience.")
    private let question = Passage(text: "Any questions?")

    private func player(_ actions: [ScenarioAction]) -> ScenarioPlayer {
        ScenarioPlayer(scenario: Scenario(actions: actions, presets: [question, Passage(text: "Thanks.")]))
    }

    @Test func `actions run in order: slides at once, speech until spoken, waits until the timer`() {
        var player = player([.changeSlide(.page(1)), .speak(hello), .wait(seconds: 1.5), .changeSlide(.next), .pause])
        #expect(player.status == "action 0 of 5 · slide 1 (index 0) · ready")
        #expect(player.handle(.start) == [.showSlide(1), .speak(hello, number: 1)])
        #expect(player.status == "action 2 of 5 · slide 2 (index 1) · speaking")
        #expect(player.currentPassage == hello)
        #expect(player.handle(.spoken(speech: 1)) == [.startTimer(seconds: 1.5, number: 1)])
        #expect(player.status == "action 3 of 5 · slide 2 (index 1) · waiting")
        #expect(player.handle(.waited(timer: 1)) == [.showSlide(2)])
        #expect(player.status == "action 5 of 5 · slide 3 (index 2) · paused")
        #expect(player.handle(.pauseKey) == [.finish])
        #expect(player.status == "action 5 of 5 · slide 3 (index 2) · finished")
        #expect(player.handle(.pauseKey) == [])
    }

    @Test func `space pauses the speech and resumes it`() {
        var player = player([.speak(hello), .speak(question)])
        _ = player.handle(.start)
        #expect(player.handle(.pauseKey) == [.pauseSpeech])
        #expect(player.status == "action 1 of 2 · slide 1 (index 0) · paused")
        #expect(player.handle(.pauseKey) == [.resumeSpeech])
        #expect(player.handle(.spoken(speech: 1)) == [.speak(question, number: 2)])
        #expect(player.handle(.spoken(speech: 2)) == [.finish])
    }

    @Test func `a speech that ends as it is paused goes on to the next action only when resumed`() {
        var player = player([.speak(hello), .speak(question)])
        _ = player.handle(.start)
        #expect(player.handle(.pauseKey) == [.pauseSpeech])
        #expect(player.handle(.spoken(speech: 1)) == [])
        #expect(player.handle(.pauseKey) == [.speak(question, number: 2)])
    }

    @Test func `a preset while paused cuts the speech, which goes on from its last word when resumed`() {
        var player = player([.speak(hello)])
        _ = player.handle(.start)
        #expect(player.handle(.presetKey(1)) == [], "presets only while paused")
        _ = player.handle(.word(speech: 1, offset: 0))
        _ = player.handle(.word(speech: 1, offset: 6))
        #expect(player.handle(.pauseKey) == [.pauseSpeech])
        #expect(player.handle(.presetKey(1)) == [.stopSpeech, .speak(question, number: 2)])
        #expect(player.status == "action 1 of 1 · slide 1 (index 0) · preset 1")
        #expect(player.currentPassage == question)
        #expect(player.handle(.spoken(speech: 1)) == [], "the cut speech's end is stale")
        _ = player.handle(.word(speech: 2, offset: 4))
        #expect(player.handle(.spoken(speech: 2)) == [])
        #expect(player.status == "action 1 of 1 · slide 1 (index 0) · paused")
        #expect(player.handle(.pauseKey) == [.speak(Passage(text: "there, audience."), number: 3)])
        _ = player.handle(.word(speech: 3, offset: 7))
        #expect(player.handle(.pauseKey) == [.pauseSpeech])
        #expect(player.handle(.presetKey(2)) == [.stopSpeech, .speak(Passage(text: "Thanks."), number: 4)])
        #expect(
            player.handle(.presetKey(1)) == [.stopSpeech, .speak(question, number: 5)], "a new preset replaces one")
        // The stopped preset's number is retired with it, so its end cannot pass for the speech's.
        #expect(player.handle(.pauseKey) == [.stopSpeech, .speak(Passage(text: "audience."), number: 7)])
        #expect(player.handle(.spoken(speech: 5)) == [])
        #expect(player.handle(.spoken(speech: 7)) == [.finish])
    }

    @Test func `the rest of a cut speech keeps its settings but not its leading silence, and cuts Japanese text whole`()
    {
        var prosody = Prosody()
        prosody.pitch = 1.6
        prosody.preDelay = 2
        var rest = prosody
        rest.preDelay = 0
        let japanese = Passage(text: "こんにちは、世界。", prosody: prosody)
        var player = player([.speak(japanese)])
        _ = player.handle(.start)
        _ = player.handle(.word(speech: 1, offset: "こんにちは、".utf8.count))
        _ = player.handle(.pauseKey)
        _ = player.handle(.presetKey(2))
        #expect(player.handle(.pauseKey) == [.stopSpeech, .speak(Passage(text: "世界。", prosody: rest), number: 4)])
    }

    @Test func `word offsets outside the text are ignored, and one inside a character counts from its start`() {
        let japanese = Passage(text: "日本語")
        var player = player([.speak(japanese)])
        _ = player.handle(.start)
        _ = player.handle(.word(speech: 1, offset: 3))
        _ = player.handle(.word(speech: 1, offset: 9))
        _ = player.handle(.word(speech: 1, offset: -1))
        _ = player.handle(.pauseKey)
        _ = player.handle(.presetKey(1))
        #expect(player.handle(.pauseKey) == [.stopSpeech, .speak(Passage(text: "本語"), number: 4)])
        _ = player.handle(.word(speech: 4, offset: 4))  // inside 語, which starts at 3 in "本語"
        _ = player.handle(.pauseKey)
        _ = player.handle(.presetKey(1))
        #expect(player.handle(.pauseKey) == [.stopSpeech, .speak(Passage(text: "語"), number: 7)])
    }

    @Test func `a pause action waits for space, and takes presets meanwhile`() {
        var player = player([.pause, .speak(hello)])
        #expect(player.handle(.start) == [])
        #expect(player.status == "action 1 of 2 · slide 1 (index 0) · paused")
        #expect(player.handle(.presetKey(9)) == [], "no ninth preset")
        #expect(player.handle(.presetKey(2)) == [.speak(Passage(text: "Thanks."), number: 1)])
        #expect(player.status == "action 1 of 2 · slide 1 (index 0) · preset 2")
        #expect(player.handle(.spoken(speech: 1)) == [])
        #expect(player.handle(.pauseKey) == [.speak(hello, number: 2)])
    }

    @Test func `a wait paused goes on when resumed, at once if its time is up`() {
        var player = player([.wait(seconds: 3), .wait(seconds: 1), .pause])
        #expect(player.handle(.start) == [.startTimer(seconds: 3, number: 1)])
        #expect(player.handle(.pauseKey) == [])
        #expect(player.status == "action 1 of 3 · slide 1 (index 0) · paused")
        #expect(player.handle(.pauseKey) == [])
        #expect(player.handle(.waited(timer: 1)) == [.startTimer(seconds: 1, number: 2)])
        #expect(player.handle(.pauseKey) == [])
        #expect(player.handle(.waited(timer: 2)) == [])
        #expect(player.handle(.pauseKey) == [])
        #expect(player.status == "action 3 of 3 · slide 1 (index 0) · paused")
    }

    @Test func `quit stops what is spoken and finishes, once`() {
        var speaking = player([.speak(hello)])
        _ = speaking.handle(.start)
        #expect(speaking.handle(.quitKey) == [.stopSpeech, .finish])
        #expect(speaking.status == "action 1 of 1 · slide 1 (index 0) · stopped")
        #expect(speaking.handle(.quitKey) == [])
        #expect(speaking.handle(.spoken(speech: 1)) == [])
        var waiting = player([.wait(seconds: 5)])
        _ = waiting.handle(.start)
        #expect(waiting.handle(.quitKey) == [.finish])
        var holding = player([.pause])
        _ = holding.handle(.start)
        _ = holding.handle(.presetKey(1))
        #expect(holding.handle(.quitKey) == [.stopSpeech, .finish])
    }

    @Test func `previous never goes before the first slide, and a scenario of slides alone finishes at once`() {
        var player = player([.changeSlide(.previous), .changeSlide(.page(4)), .changeSlide(.previous)])
        #expect(player.handle(.start) == [.showSlide(0), .showSlide(4), .showSlide(3), .finish])
        #expect(player.status == "action 3 of 3 · slide 4 (index 3) · finished")
    }
}
