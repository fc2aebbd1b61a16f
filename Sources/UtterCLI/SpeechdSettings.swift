import Configuration

/// What a speechd.conf says about modules and audio, and the edits `utter install` makes to it.
/// Pure: text in, facts or text out.
struct SpeechdSettings {
    /// The module names of its `AddModule` lines: when there are any, the server detects no module
    /// by itself.
    var addedModules: [String] = []
    var defaultModule: String?
    /// `LanguageDefaultModule` lines: language → module.
    var languageModules: [(language: String, module: String)] = []
    var alsaDevice: String?
    /// The first method of `AudioOutputMethod` (speech-dispatcher's own default is pulse).
    var outputMethod: String?

    init(parsing text: String) {
        for entry in DotconfParser.parse(text).entries {
            let values = entry.arguments
            switch entry.key.lowercased() {
            case "addmodule" where !values.isEmpty: addedModules.append(values[0])
            case "defaultmodule" where values.count == 1: defaultModule = values[0]
            case "languagedefaultmodule" where values.count == 2:
                languageModules.append((language: values[0], module: values[1]))
            case "audioalsadevice" where values.count == 1: alsaDevice = values[0]
            case "audiooutputmethod" where !values.isEmpty:
                outputMethod = values[0].split(separator: ",").first.map { String($0.filter { !$0.isWhitespace }) }
            default: break
            }
        }
    }

    /// The languages Utter is the default module for.
    var utterLanguages: [String] {
        languageModules.filter { $0.module == "utter" }.map(\.language)
    }

    /// Whether the server would start Utter: it detects modules, or an AddModule line names it.
    var startsUtter: Bool { addedModules.isEmpty || addedModules.contains("utter") }

    /// Whether Utter is the system voice: the default module and the only one the server loads,
    /// so that clients that list every module's voices (Chromium, Qt) list Utter's alone.
    var utterIsSystemVoice: Bool { addedModules == ["utter"] && defaultModule == "utter" }

    /// How `utter install --user --system-voice` marks a line it turned off.
    static let turnedOffPrefix = "# Off while Utter is the system voice: "

    static let addModuleLine = #"AddModule "utter" "sd_utter" "utter.conf""#

    /// `text` with what Utter needs: an AddModule line when others turn detection off, and, when
    /// asked, Utter as the default module (its `DefaultModule` line replaced) and for `languages`
    /// (their `LanguageDefaultModule` lines replaced). As the `systemVoice`, Utter is also the
    /// only module loaded: its AddModule line turns detection off, and the lines that add or
    /// choose another module are turned off (kept, commented out, for the reader). Nil when
    /// nothing needs to change.
    static func editing(_ text: String, makeDefault: Bool, languages: [String], systemVoice: Bool = false) -> String? {
        let settings = SpeechdSettings(parsing: text)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        func key(of line: String) -> (key: String, arguments: [String]) {
            let entries = DotconfParser.parse(line).entries
            guard let entry = entries.first else { return ("", []) }
            return (entry.key.lowercased(), entry.arguments)
        }
        let makeDefault = makeDefault || systemVoice
        var added: [String] = []
        var turnedOff = false
        if systemVoice {
            lines = lines.map { line in
                let (key, arguments) = key(of: line)
                let otherModule =
                    switch key {
                    case "addmodule": arguments.first != "utter"
                    case "languagedefaultmodule": arguments.count == 2 && arguments[1] != "utter"
                    default: false
                    }
                guard otherModule else { return line }
                turnedOff = true
                return turnedOffPrefix + line
            }
            if !settings.addedModules.contains("utter") { added.append(addModuleLine) }
        } else if !settings.startsUtter {
            added.append(addModuleLine)
        }
        if makeDefault && settings.defaultModule != "utter" {
            lines.removeAll { key(of: $0).key == "defaultmodule" }
            added.append("DefaultModule utter")
        }
        for language in languages where !settings.utterLanguages.contains(language) {
            lines.removeAll {
                let (key, arguments) = key(of: $0)
                return key == "languagedefaultmodule" && arguments.first == language
            }
            added.append(#"LanguageDefaultModule "\#(language)" "utter""#)
        }
        guard !added.isEmpty || turnedOff else { return nil }
        guard !added.isEmpty else { return lines.joined(separator: "\n") + "\n" }
        lines.append("")
        lines.append("# Added by 'utter install --user' ('utter uninstall --user' takes it out again).")
        lines.append(contentsOf: added)
        return lines.joined(separator: "\n") + "\n"
    }
}
