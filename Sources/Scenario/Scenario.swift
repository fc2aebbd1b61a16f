public import JSON

/// A talk or demo read by the machine: what to say and when, as iOS presentation apps built on
/// AVSpeechSynthesizer write it (JSON with `actions`, `presets` and default speech settings).
public struct Scenario: Sendable, Equatable {
    /// The settings of every speech that does not set its own.
    public var defaults: Prosody
    public var actions: [ScenarioAction]
    /// What keys 1 to 9 say while the talk is paused.
    public var presets: [Passage]

    public init(defaults: Prosody = Prosody(), actions: [ScenarioAction], presets: [Passage] = []) {
        self.defaults = defaults
        self.actions = actions
        self.presets = presets
    }

    /// The scenario `text` holds; a syntax error, or every problem with its content, is thrown.
    /// Keys the format does not know (apps add ids, titles, notes) are ignored.
    public init(parsing text: String) throws(ScenarioError) {
        let root: JSONValue
        do {
            root = try JSONReader.value(of: text)
        } catch {
            throw .syntax(error)
        }
        var checker = ScenarioChecker()
        let scenario = checker.scenario(root)
        guard let scenario, checker.problems.isEmpty else { throw .invalid(checker.problems) }
        self = scenario
    }
}

/// How a speech sounds and the silence around it, on AVSpeechUtterance's scales.
public struct Prosody: Sendable, Equatable {
    /// A BCP 47 tag; nil: the voice's own language.
    public var language: String?
    /// 0…1, 0.5 normal.
    public var rate = 0.5
    /// 0.5…2, a multiplier of the voice's pitch.
    public var pitch = 1.0
    /// 0…1.
    public var volume = 1.0
    /// Seconds of silence before and after the speech.
    public var preDelay = 0.0
    public var postDelay = 0.0

    public init() {}
}

/// Text to speak, and how.
public struct Passage: Sendable, Equatable {
    public var text: String
    public var prosody: Prosody

    public init(text: String, prosody: Prosody = Prosody()) {
        self.text = text
        self.prosody = prosody
    }
}

/// One step of a scenario.
public enum ScenarioAction: Sendable, Equatable {
    case speak(Passage)
    /// Silence, then the next action.
    case wait(seconds: Double)
    /// Waits for the presenter to go on.
    case pause
    case changeSlide(SlideChange)
}

/// Where a slide change goes.
public enum SlideChange: Sendable, Equatable {
    /// A page by its index, 0 for the first slide, as the presentation app counts pages (PDFKit's
    /// `page(at:)`): its scenarios start with page 0.
    case page(Int)
    case next
    case previous

    /// The page index this change leads to from page index `index` (there is none before 0).
    public func index(after index: Int) -> Int {
        switch self {
        case .page(let number): number
        case .next: index + 1
        case .previous: max(0, index - 1)
        }
    }
}

/// Why a text is not a scenario.
public enum ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// It is not JSON.
    case syntax(JSONSyntaxError)
    /// It is JSON, but these are wrong in it: all of them, in the order of the file.
    case invalid([ScenarioProblem])

    /// One line per problem.
    public var description: String {
        switch self {
        case .syntax(let error): "\(error)"
        case .invalid(let problems): problems.map(\.description).joined(separator: "\n")
        }
    }
}

/// One thing wrong in a scenario: where (its JSON path and line) and what.
public struct ScenarioProblem: Sendable, Equatable, CustomStringConvertible {
    /// Like `actions[3].seconds`; empty for the whole document.
    public var path: String
    public var message: String
    public var line: Int

    public init(path: String, message: String, line: Int) {
        self.path = path
        self.message = message
        self.line = line
    }

    /// `actions[3].seconds: expected a number, found "soon" (line 14)`.
    public var description: String {
        (path.isEmpty ? "" : "\(path): ") + "\(message) (line \(line))"
    }
}

extension Scenario {
    /// The speeches as one recording plays them: pauses and slide changes left out, and the
    /// silence of each wait added before the next speech (after the last one, at the end).
    public var recording: [Passage] {
        var speeches: [Passage] = []
        var silence = 0.0
        for action in actions {
            switch action {
            case .speak(var speech):
                speech.prosody.preDelay += silence
                silence = 0
                speeches.append(speech)
            case .wait(let seconds):
                silence += seconds
            case .pause, .changeSlide:
                break
            }
        }
        if silence > 0, !speeches.isEmpty { speeches[speeches.count - 1].prosody.postDelay += silence }
        return speeches
    }
}
