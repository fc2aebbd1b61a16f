import Scenario
import System
import UtterKit

/// `utter play` playing: the scenario player's effects performed on a speech channel, a timer
/// and the slide command; keys, speech events and timers fed back to it as events.
struct Performance {
    private var player: ScenarioPlayer
    private let channel: any SpeechChannel
    private let speech: SpeechOptions
    private let slides: SlideCommand?
    /// The terminal's keys; nil without a terminal, and then plain lines instead of a status line.
    private let keys: KeyReader?
    private var interactive: Bool { keys != nil }
    private let events: AsyncStream<ScenarioPlayer.Event>
    private let sink: AsyncStream<ScenarioPlayer.Event>.Continuation
    /// Slide commands started and not yet seen to end.
    private var commands: [(page: Int, process: BackgroundProcess)] = []
    private var shownStatus = ""

    init(
        scenario: Scenario, channel: any SpeechChannel, speech: SpeechOptions, slides: SlideCommand?, keys: KeyReader?
    ) {
        player = ScenarioPlayer(scenario: scenario)
        self.channel = channel
        self.speech = speech
        self.slides = slides
        self.keys = keys
        (events, sink) = AsyncStream.makeStream(of: ScenarioPlayer.Event.self, bufferingPolicy: .unbounded)
    }

    mutating func run() async {
        if let keys { listen(to: keys.keys) }
        defer { keys?.close() }
        sink.yield(.start)
        for await event in events {
            var finished = perform(player.handle(event))
            // Without keys nobody can end a pause action: it is passed over.
            if keys == nil, player.phase == .holding {
                line("pause passed over: no keys to go on with")
                finished = perform(player.handle(.pauseKey)) || finished
            }
            collectSlideCommands()
            if finished { break }
            showStatus()
        }
        Terminal.write((interactive ? "\r\u{1B}[K" : "") + player.status + "\n")
    }

    private func listen(to keys: AsyncStream<Key>) {
        let sink = sink
        Task {
            for await key in keys {
                switch key {
                case .character(" "): sink.yield(.pauseKey)
                case .character("q"), .character("Q"), .interrupt: sink.yield(.quitKey)
                case .character(let character):
                    if let digit = character.wholeNumberValue, (1...9).contains(digit) { sink.yield(.presetKey(digit)) }
                default: break
                }
            }
        }
    }

    /// Performs `effects`; true when playing is over.
    private mutating func perform(_ effects: [ScenarioPlayer.Effect]) -> Bool {
        for effect in effects {
            switch effect {
            case .speak(let text, let number):
                speak(text, number: number)
            case .startTimer(let seconds, let number):
                let sink = sink
                Task {
                    try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                    sink.yield(.waited(timer: number))
                }
                line("(waiting \(UtterCommand.Play.decimal(seconds)) s)")
            case .pauseSpeech: channel.pause(at: .immediate)
            case .resumeSpeech: channel.resume()
            case .stopSpeech: channel.stop(at: .immediate)
            case .showSlide(let index):
                line("slide \(index + 1) (index \(index))")
                guard let slides else { break }
                do {
                    commands.append((index + 1, try slides.start(index: index)))
                } catch {
                    line(error.description)
                }
            case .finish:
                return true
            }
        }
        return false
    }

    private func speak(_ passage: Passage, number: Int) {
        let utterance = UtterCommand.Play.utterance(passage, options: speech)
        if let preset = player.preset {
            line("preset \(preset): \(utterance.text)")
        } else {
            line(utterance.text)
        }
        let stream = channel.speak(utterance)
        let sink = sink
        Task {
            for await event in stream {
                switch event {
                case .word(let range):
                    let offset = utterance.text.utf8.distance(from: utterance.text.startIndex, to: range.lowerBound)
                    sink.yield(.word(speech: number, offset: offset))
                case .finished, .cancelled:
                    sink.yield(.spoken(speech: number))
                case .started, .mark, .paused, .resumed:
                    break
                }
            }
        }
    }

    /// Notes each slide command that has ended, and says so when it failed.
    private mutating func collectSlideCommands() {
        var failed: [(page: Int, status: Int32)] = []
        commands.removeAll { command in
            guard let status = command.process.exitStatus() else { return false }
            if status != 0 { failed.append((command.page, status)) }
            return true
        }
        for (page, status) in failed { line("the slide command for slide \(page) failed (exit status \(status))") }
    }

    /// Writes a line of output; on a terminal above the status line, which is drawn again.
    private func line(_ text: String) {
        Terminal.write(interactive ? "\r\u{1B}[K" + text + "\n" + fitted(shownStatus) : text + "\n")
    }

    /// Draws the status line in place on a terminal; in a pipe, nothing: each step has its line.
    private mutating func showStatus() {
        guard interactive else { return }
        var status = player.status
        if player.isPaused || player.phase == .holding {
            status += " · space goes on"
            switch player.scenario.presets.count {
            case 0: break
            case 1: status += " · 1: preset"
            case let count: status += " · 1–\(count): presets"
            }
        }
        status += " · q quits"
        guard status != shownStatus else { return }
        shownStatus = status
        Terminal.write("\r\u{1B}[K" + fitted(status))
    }

    /// `text` cut to the terminal's width, so that it never wraps: "\r" returns to its start.
    private func fitted(_ text: String) -> String {
        let width = max(10, Terminal.columns - 1)
        return text.count > width ? String(text.prefix(width - 1)) + "…" : text
    }
}
