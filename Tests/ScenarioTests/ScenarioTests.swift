import JSON
import Scenario
import Testing

/// Scenario files as presentation apps write them, and every way one can be wrong.
@Suite struct ScenarioTests {
    @Test func `a scenario with defaults, overrides, every action type and presets reads whole`() throws {
        let text = """
            {
              "title": "Demo day",
              "language": "en-US", "rate": 0.5, "pitch": 1.0, "volume": 0.8,
              "preDelay": 0.2, "postDelay": 0.5,
              "actions": [
                {"id": 1, "type": "speak", "text": "Welcome."},
                {"type": "changeSlidePage", "page": 2},
                {"type": "speak", "text": "Higher and faster.", "pitch": 1.6, "rate": 0.7, "postDelay": 0},
                {"type": "wait", "seconds": 1.5},
                {"type": "pause"},
                {"type": "changeSlidePage", "page": "next"},
                {"type": "changeSlidePage", "page": "previous"},
                {"type": "speak", "text": "こんにちは、世界。", "language": "ja-JP"}
              ],
              "presets": [{"text": "Any questions?"}, {"text": "Thank you.", "volume": 1}]
            }
            """
        var defaults = Prosody()
        defaults.language = "en-US"
        defaults.volume = 0.8
        defaults.preDelay = 0.2
        defaults.postDelay = 0.5
        var higher = defaults
        higher.pitch = 1.6
        higher.rate = 0.7
        higher.postDelay = 0
        var japanese = defaults
        japanese.language = "ja-JP"
        var loud = defaults
        loud.volume = 1
        let expected = Scenario(
            defaults: defaults,
            actions: [
                .speak(Passage(text: "Welcome.", prosody: defaults)), .changeSlide(.page(2)),
                .speak(Passage(text: "Higher and faster.", prosody: higher)), .wait(seconds: 1.5), .pause,
                .changeSlide(.next), .changeSlide(.previous), .speak(Passage(text: "こんにちは、世界。", prosody: japanese)),
            ],
            presets: [Passage(text: "Any questions?", prosody: defaults), Passage(text: "Thank you.", prosody: loud)])
        #expect(try Scenario(parsing: text) == expected)
    }

    @Test func `every problem is listed at once, with its path and line, in the order of the file`() {
        let text = """
            {
              "language": "english!",
              "rate": 1.5,
              "pitch": "high",
              "volume": -0.1,
              "actions": [
                {"type": "speak", "text": "Hello."},
                {"type": "speak"},
                {"type": "speak", "text": "  "},
                {
                  "type": "wait",
                  "note": "give them time",
                  "seconds":
                    "soon"
                },
                {"type": "wait"},
                {"type": "wait", "seconds": -2},
                {"type": "changeSlidePage", "page": -1},
                {"type": "changeSlidePage", "page": 2.5},
                {"type": "changeSlidePage", "page": "last"},
                {"type": "changeSlidePage"},
                {"type": "jump"},
                {"text": "no type"},
                {"type": 3},
                "speak",
                {"type": "speak", "text": "Twice", "rate": 0.2, "rate": 0.3},
                {"type": "speak", "text": 42, "preDelay": 601, "postDelay": true}
              ],
              "presets": [
                {"text": "1"}, {"text": "2"}, {"text": "3"}, {"text": "4"}, {"text": "5"},
                {"text": "6"}, {"text": "7"}, {"text": "8"}, {"text": "9"}, {"pitch": 3}
              ]
            }
            """
        let expected = """
            language: expected a BCP 47 language tag such as "en-US", found "english!" (line 2)
            rate: must be from 0 to 1, found 1.5 (line 3)
            pitch: expected a number, found "high" (line 4)
            volume: must be from 0 to 1, found -0.1 (line 5)
            actions[1].text: missing; give the text to speak (line 8)
            actions[2].text: expected the text to speak, found "  " (line 9)
            actions[3].seconds: expected a number, found "soon" (line 14)
            actions[4].seconds: missing; a wait action needs its length in seconds (line 16)
            actions[5].seconds: must be from 0 to 600, found -2 (line 17)
            actions[6].page: expected a page index (0 for the first slide), "next" or "previous", found -1 (line 18)
            actions[7].page: expected a page index (0 for the first slide), "next" or "previous", found 2.5 (line 19)
            actions[8].page: expected a page index (0 for the first slide), "next" or "previous", found "last" (line 20)
            actions[9].page: missing; give a page index (0 for the first slide), "next" or "previous" (line 21)
            actions[10].type: expected "speak", "wait", "pause" or "changeSlidePage", found "jump" (line 22)
            actions[11].type: missing; one of "speak", "wait", "pause" or "changeSlidePage" (line 23)
            actions[12].type: expected a string, found 3 (line 24)
            actions[13]: expected an object, found "speak" (line 25)
            actions[14].rate: appears twice in one object (line 26)
            actions[15].text: expected a string, found 42 (line 27)
            actions[15].preDelay: must be from 0 to 600, found 601 (line 27)
            actions[15].postDelay: expected a number, found true (line 27)
            presets: at most 9 presets (keys 1 to 9), found 10 (line 29)
            presets[9].text: missing; give the text to speak (line 31)
            presets[9].pitch: must be from 0.5 to 2, found 3 (line 31)
            """
        #expect(throws: ScenarioError.self) { try Scenario(parsing: text) }
        #expect(problems(text) == expected)
    }

    @Test(arguments: [
        ("[]", "a scenario is a JSON object, found an array (line 1)"),
        ("{}", "actions: missing; a scenario needs a list of actions (line 1)"),
        ("{\"actions\": {}}", "actions: expected an array, found an object (line 1)"),
        ("{\n\"actions\": []}", "actions: is empty; a scenario needs at least one action (line 2)"),
        (
            "{\"actions\": [{\"type\": \"pause\"}], \"presets\": \"hi\"}",
            "presets: expected an array, found \"hi\" (line 1)"
        ),
        (
            "{\"actions\": [{\"type\": \"wait\", \"seconds\": 1e400}]}",
            "actions[0].seconds: must be from 0 to 600, found 1e400 (line 1)"
        ),
        (
            "{\"actions\": [{\"type\": \"speak\", \"text\": \"\(String(repeating: "long ", count: 10))\"}], \"language\": null}",
            "language: expected a string, found null (line 1)"
        ),
        (
            "{\"actions\": [{\"type\": \"speak\", \"text\": 1}], \"presets\": [\"\(String(repeating: "a", count: 50))\"]}",
            "actions[0].text: expected a string, found 1 (line 1)\npresets[0]: expected an object, found \"\(String(repeating: "a", count: 40))…\" (line 1)"
        ),
    ])
    func `a wrong scenario is refused with the exact message`(text: String, message: String) {
        #expect(problems(text) == message)
    }

    @Test func `language tags are checked for their shape`() {
        for tag in ["en", "ja-JP", "zh-Hant-TW", "de-DE-1996", "yue"] {
            #expect(problems(#"{"language": "\#(tag)", "actions": [{"type": "pause"}]}"#) == "", "\(tag)")
        }
        for tag in ["", "e", "en_US", "en-", "-en", "1a", "en-toolongsubtag", "日本"] {
            #expect(problems(#"{"language": "\#(tag)", "actions": [{"type": "pause"}]}"#) != "", "\(tag)")
        }
    }

    @Test func `unknown keys are ignored, even repeated`() throws {
        let scenario = try Scenario(
            parsing: #"{"id": 1, "id": 2, "actions": [{"type": "pause", "title": {"nested": [1, 2]}}], "extra": null}"#)
        #expect(scenario.actions == [.pause])
    }

    @Test func `a recording leaves out pauses and slides, and turns waits into the silences around speech`() {
        var slow = Prosody()
        slow.rate = 0.3
        slow.preDelay = 0.5
        slow.postDelay = 0.25
        let scenario = Scenario(actions: [
            .wait(seconds: 1), .speak(Passage(text: "One.", prosody: slow)), .pause, .wait(seconds: 2),
            .changeSlide(.next), .wait(seconds: 0.5), .speak(Passage(text: "Two.")), .wait(seconds: 3), .pause,
        ])
        var first = slow
        first.preDelay = 1.5
        var second = Prosody()
        second.preDelay = 2.5
        second.postDelay = 3
        #expect(scenario.recording == [Passage(text: "One.", prosody: first), Passage(text: "Two.", prosody: second)])
        #expect(Scenario(actions: [.wait(seconds: 1), .pause]).recording == [])
    }

    @Test func `slide changes count pages from 0, as the app does, and never go before the first`() {
        #expect(SlideChange.previous.index(after: 0) == 0)
        #expect(SlideChange.previous.index(after: 3) == 2)
        #expect(SlideChange.next.index(after: 3) == 4)
        #expect(SlideChange.page(0).index(after: 3) == 0)
        #expect(SlideChange.page(7).index(after: 3) == 7)
    }

    @Test func `a syntax error in a scenario is told as such`() {
        #expect(
            throws: ScenarioError.syntax(
                JSONSyntaxError(message: "expected a value, found 'soon'", line: 3, column: 15))
        ) {
            try Scenario(parsing: "{\"actions\": [\n  {\"type\": \"wait\",\n   \"seconds\": soon}]}")
        }
    }

    private func problems(_ text: String) -> String {
        do {
            _ = try Scenario(parsing: text)
            return ""
        } catch {
            return error.description
        }
    }
}
