import JSON

/// Turns a JSON document into a ``Scenario``, noting every problem on the way rather than stopping
/// at the first, so that one run of the checker lists all a presenter has to fix.
struct ScenarioChecker {
    static let maximumPresets = 9
    /// The engine holds at most this much silence around one speech.
    static let maximumDelay = 600.0
    static let actionTypes = ["speak", "wait", "pause", "changeSlidePage"]

    private(set) var problems: [ScenarioProblem] = []

    mutating func scenario(_ root: JSONValue) -> Scenario? {
        defer {
            problems = problems.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(
                \.element)
        }
        guard let members = object(root, at: "", keys: ["actions", "presets"] + Self.prosodyKeys) else { return nil }
        let defaults = prosody(members, at: "", over: Prosody())
        var actions: [ScenarioAction] = []
        if let value = members["actions"], let elements = array(value, at: "actions") {
            if elements.isEmpty { report("actions", "is empty; a scenario needs at least one action", value) }
            for (index, element) in elements.enumerated() {
                if let action = action(element, at: "actions[\(index)]", defaults: defaults) { actions.append(action) }
            }
        } else if members["actions"] == nil {
            report("actions", "missing; a scenario needs a list of actions", root)
        }
        var presets: [Passage] = []
        if let value = members["presets"], let elements = array(value, at: "presets") {
            if elements.count > Self.maximumPresets {
                report(
                    "presets", "at most \(Self.maximumPresets) presets (keys 1 to 9), found \(elements.count)", value)
            }
            for (index, element) in elements.enumerated() {
                if let preset = preset(element, at: "presets[\(index)]", defaults: defaults) { presets.append(preset) }
            }
        }
        return Scenario(defaults: defaults, actions: actions, presets: presets)
    }

    private static let prosodyKeys = ["language", "rate", "pitch", "volume", "preDelay", "postDelay"]

    private mutating func action(_ value: JSONValue, at path: String, defaults: Prosody) -> ScenarioAction? {
        guard let members = object(value, at: path, keys: ["type", "text", "seconds", "page"] + Self.prosodyKeys)
        else { return nil }
        guard let typeValue = members["type"] else {
            report(path + ".type", "missing; one of \(Self.typeList)", value)
            return nil
        }
        guard let type = string(typeValue, at: path + ".type") else { return nil }
        switch type {
        case "speak":
            return speech(members, in: value, at: path, defaults: defaults).map(ScenarioAction.speak)
        case "wait":
            guard let seconds = members["seconds"] else {
                report(path + ".seconds", "missing; a wait action needs its length in seconds", value)
                return nil
            }
            return number(seconds, at: path + ".seconds", in: 0...Self.maximumDelay).map { .wait(seconds: $0) }
        case "pause":
            return .pause
        case "changeSlidePage":
            guard let page = members["page"] else {
                report(path + ".page", "missing; give a page index (0 for the first slide), \"next\" or \"previous\"", value)
                return nil
            }
            return slideChange(page, at: path + ".page").map(ScenarioAction.changeSlide)
        default:
            report(path + ".type", "expected \(Self.typeList), found \(typeValue.quoted)", typeValue)
            return nil
        }
    }

    private static var typeList: String {
        actionTypes.dropLast().map { "\"\($0)\"" }.joined(separator: ", ") + " or \"\(actionTypes.last!)\""
    }

    private mutating func preset(_ value: JSONValue, at path: String, defaults: Prosody) -> Passage? {
        guard let members = object(value, at: path, keys: ["text"] + Self.prosodyKeys) else { return nil }
        return speech(members, in: value, at: path, defaults: defaults)
    }

    private mutating func speech(
        _ members: [String: JSONValue], in value: JSONValue, at path: String, defaults: Prosody
    ) -> Passage? {
        let text = speechText(members["text"], in: value, at: path + ".text")
        let prosody = prosody(members, at: path, over: defaults)
        return text.map { Passage(text: $0, prosody: prosody) }
    }

    private mutating func speechText(_ value: JSONValue?, in object: JSONValue, at path: String) -> String? {
        guard let value else {
            report(path, "missing; give the text to speak", object)
            return nil
        }
        guard let text = string(value, at: path) else { return nil }
        guard text.contains(where: { !$0.isWhitespace }) else {
            report(path, "expected the text to speak, found \(value.quoted)", value)
            return nil
        }
        return text
    }

    private mutating func prosody(_ members: [String: JSONValue], at path: String, over base: Prosody) -> Prosody {
        let prefix = path.isEmpty ? "" : path + "."
        var prosody = base
        if let value = members["language"], let tag = string(value, at: prefix + "language") {
            if Self.isLanguageTag(tag) {
                prosody.language = tag
            } else {
                report(
                    prefix + "language", "expected a BCP 47 language tag such as \"en-US\", found \(value.quoted)",
                    value)
            }
        }
        let ranges: [(String, ClosedRange<Double>, WritableKeyPath<Prosody, Double>)] = [
            ("rate", 0...1, \.rate), ("pitch", 0.5...2, \.pitch), ("volume", 0...1, \.volume),
            ("preDelay", 0...Self.maximumDelay, \.preDelay), ("postDelay", 0...Self.maximumDelay, \.postDelay),
        ]
        for (key, range, field) in ranges {
            if let value = members[key], let number = number(value, at: prefix + key, in: range) {
                prosody[keyPath: field] = number
            }
        }
        return prosody
    }

    /// Subtags of letters and digits, 1 to 8 long, the first all letters (`en`, `ja-JP`, `zh-Hant-TW`).
    static func isLanguageTag(_ tag: String) -> Bool {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, first.count >= 2, first.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return false
        }
        return subtags.allSatisfy {
            (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }

    private mutating func slideChange(_ value: JSONValue, at path: String) -> SlideChange? {
        switch value.kind {
        case .string("next"): return .next
        case .string("previous"): return .previous
        case .number(let number)
        where number.value >= 0 && number.value <= Double(Int32.max) && number.value.rounded() == number.value:
            return .page(Int(number.value))
        default:
            report(
                path, "expected a page index (0 for the first slide), \"next\" or \"previous\", found \(value.quoted)",
                value)
            return nil
        }
    }

    // MARK: Values of a type

    /// The members by key, noting a key that repeats among `keys` (the ones read; others are ignored).
    private mutating func object(_ value: JSONValue, at path: String, keys: [String]) -> [String: JSONValue]? {
        guard case .object(let members) = value.kind else {
            report(
                path,
                path.isEmpty
                    ? "a scenario is a JSON object, found \(value.quoted)"
                    : "expected an object, found \(value.quoted)", value)
            return nil
        }
        var byKey: [String: JSONValue] = [:]
        for member in members {
            if byKey[member.key] != nil, keys.contains(member.key) {
                report((path.isEmpty ? "" : path + ".") + member.key, "appears twice in one object", member.value)
            }
            byKey[member.key] = byKey[member.key] ?? member.value
        }
        return byKey
    }

    private mutating func array(_ value: JSONValue, at path: String) -> [JSONValue]? {
        guard case .array(let elements) = value.kind else {
            report(path, "expected an array, found \(value.quoted)", value)
            return nil
        }
        return elements
    }

    private mutating func string(_ value: JSONValue, at path: String) -> String? {
        guard case .string(let text) = value.kind else {
            report(path, "expected a string, found \(value.quoted)", value)
            return nil
        }
        return text
    }

    private mutating func number(_ value: JSONValue, at path: String, in range: ClosedRange<Double>) -> Double? {
        guard case .number(let number) = value.kind else {
            report(path, "expected a number, found \(value.quoted)", value)
            return nil
        }
        guard range.contains(number.value) else {
            report(
                path,
                "must be from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound)), found \(number)",
                value)
            return nil
        }
        return number.value
    }

    private static func format(_ number: Double) -> String {
        number.rounded() == number ? "\(Int(number))" : "\(number)"
    }

    private mutating func report(_ path: String, _ message: String, _ value: JSONValue) {
        problems.append(ScenarioProblem(path: path, message: message, line: value.line))
    }
}
