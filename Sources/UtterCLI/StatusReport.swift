import Configuration
import JapaneseReading
import JSON
import OnnxRuntime
import RegularFiles
import SpeechDispatcherClient
import System
import UtterEngine
import UtterKit

/// One finding of `utter status`.
struct StatusCheck: Equatable {
    enum Level: String {
        case ok
        case note
        case problem = "PROBLEM"
    }

    var topic: String
    var level: Level
    var message: String
    /// The exact thing to do, for a problem.
    var fix: String? = nil
}

/// Everything `utter status` looks at, in the order a helper would: is the module where the
/// server finds it, will the server start it, is it the default, is a server running with it, can
/// it play, what did it log.
struct StatusReport {
    let folders: UserFolders
    var checks: [StatusCheck] = []

    /// Looks at everything; with `speak`, first has the server speak a test sentence (starting
    /// it if none runs), so that what follows describes the server that spoke.
    init(folders: UserFolders, speak: Bool) {
        self.folders = folders
        let spoken = speak ? speakTest() : nil
        checks.append(module())
        let (speechdConf, settings) = speechdSettings()
        checks.append(detection(speechdConf, settings))
        checks.append(defaultModule(speechdConf, settings))
        checks.append(clients(speechdConf, settings))
        checks.append(server())
        checks.append(contentsOf: audio(settings))
        checks.append(japanese())
        if let neural = neuralVoices() { checks.append(neural) }
        checks.append(log())
        if let spoken { checks.append(spoken) }
    }

    /// A report of findings already made.
    init(folders: UserFolders, checks: [StatusCheck]) {
        self.folders = folders
        self.checks = checks
    }

    var problemCount: Int { checks.filter { $0.level == .problem }.count }

    private func module() -> StatusCheck {
        let user = folders.userModules
        let candidates = [user] + UserFolders.systemModules
        let found = candidates.filter { FileSystem.isExecutableFile($0 + "/sd_utter") }
        guard !found.isEmpty else {
            return StatusCheck(
                topic: "module", level: .problem,
                message: "sd_utter is not installed where speech-dispatcher looks for modules ("
                    + candidates.map(folders.shown).joined(separator: ", ") + ").",
                fix: "Run 'utter install --user' with a build of Utter, or install the utter package.")
        }
        if found == [user] && !FileSystem.isDirectory(folders.dataHome) {
            return StatusCheck(
                topic: "module", level: .problem,
                message:
                    "sd_utter is in \(folders.shown(user)), but speech-dispatcher only looks there when \(folders.shown(folders.dataHome)) exists.",
                fix: "mkdir -p \(folders.dataHome)")
        }
        return StatusCheck(
            topic: "module", level: .ok,
            message: "sd_utter is installed in " + found.map(folders.shown).joined(separator: " and ") + ".")
    }

    /// Whether Japanese kanji are read: MeCab's dictionary is there and opens.
    private func japanese() -> StatusCheck {
        guard let dictionary = JapaneseDictionary.installed() else {
            return StatusCheck(
                topic: "japanese", level: .note,
                message: "No MeCab dictionary for Japanese (looked in "
                    + JapaneseDictionary.known.map(\.path).joined(separator: ", ")
                    + "): kanji are spelled as \"Chinese letter\", not read.",
                fix: JapaneseDictionary.installCommand)
        }
        let name = dictionary.package.map { " (\($0))" } ?? ""
        do {
            _ = try JapaneseReader(dictionary: dictionary)
        } catch {
            return StatusCheck(
                topic: "japanese", level: .problem, message: "\(error)", fix: JapaneseDictionary.installCommand)
        }
        return StatusCheck(
            topic: "japanese", level: .ok,
            message: "Japanese is read with MeCab and the dictionary in \(dictionary.path)\(name).")
    }

    private func speechdSettings() -> (path: String, settings: SpeechdSettings?) {
        let path = folders.speechdConf
        guard case .success(let text) = readTextFile(path) else { return (path, nil) }
        return (path, SpeechdSettings(parsing: text))
    }

    private func detection(_ path: String, _ settings: SpeechdSettings?) -> StatusCheck {
        guard let settings else {
            return StatusCheck(
                topic: "configuration", level: .note,
                message: "\(folders.shown(path)) cannot be read: speech-dispatcher runs with its defaults.")
        }
        if settings.startsUtter {
            return StatusCheck(
                topic: "configuration", level: .ok,
                message: settings.addedModules.isEmpty
                    ? "\(folders.shown(path)) lets speech-dispatcher detect its modules, Utter among them."
                    : "\(folders.shown(path)) adds Utter with an AddModule line.")
        }
        return StatusCheck(
            topic: "configuration", level: .problem,
            message:
                "\(folders.shown(path)) has AddModule lines (\(settings.addedModules.joined(separator: ", "))), which turn off module detection, and none for utter.",
            fix:
                "Add this line to \(folders.shown(path)): \(SpeechdSettings.addModuleLine)  (or run 'utter install --user')"
        )
    }

    private func defaultModule(_ path: String, _ settings: SpeechdSettings?) -> StatusCheck {
        let settings = settings ?? SpeechdSettings(parsing: "")
        if settings.defaultModule == "utter" {
            return StatusCheck(
                topic: "default", level: .ok,
                message: "Utter is the default module (DefaultModule in \(folders.shown(path))).")
        }
        let other = settings.defaultModule.map { "\($0) is" } ?? "speechd.conf names none"
        let languages = settings.utterLanguages
        if !languages.isEmpty {
            return StatusCheck(
                topic: "default", level: .ok,
                message:
                    "Utter is the default module for \(languages.joined(separator: ", ")); for other languages \(other)."
            )
        }
        return StatusCheck(
            topic: "default", level: .note,
            message:
                "Utter is not the default module (\(other)): clients use it when they ask for it, as Orca does when it is chosen as Orca's synthesizer. 'utter install --user --default' makes it the default."
        )
    }

    /// Which clients speak with Utter: the default module reaches those that ask for none (Orca
    /// when it is chosen, spd-say, Firefox); Chromium and Qt list every loaded module's voices and
    /// take the first that fits a language, which is another module's while another is loaded.
    private func clients(_ path: String, _ settings: SpeechdSettings?) -> StatusCheck {
        let settings = settings ?? SpeechdSettings(parsing: "")
        if settings.utterIsSystemVoice {
            return StatusCheck(
                topic: "clients", level: .ok,
                message:
                    "Utter is the only module speech-dispatcher loads (AddModule in \(folders.shown(path))): Orca, spd-say, Firefox, Chromium and Qt applications speak with it.")
        }
        if settings.addedModules == ["utter"] {
            return StatusCheck(
                topic: "clients", level: .note,
                message:
                    "Utter is the only module speech-dispatcher loads, but not its default module: 'utter install --user --system-voice' makes it both.")
        }
        let others =
            settings.addedModules.isEmpty
            ? "every module speech-dispatcher detects"
            : settings.addedModules.filter { $0 != "utter" }.joined(separator: ", ")
        let reached =
            settings.defaultModule == "utter"
            ? "Orca, spd-say and Firefox speak with Utter"
            : "Clients speak with Utter when they choose it"
        return StatusCheck(
            topic: "clients", level: .note,
            message:
                "\(reached); Chromium and Qt applications list the voices of \(others) too, and for a language take the first that fits, which need not be Utter's. 'utter install --user --system-voice' makes Utter the only module loaded (espeak-ng's voices stay, as Utter's own).")
    }

    private func server() -> StatusCheck {
        let server = UserServer()
        let socket = server.socket.map(folders.shown) ?? "the default address"
        let connection: SpeechDispatcherConnection
        do {
            connection = try SpeechDispatcherConnection(clientName: "utter-status", startingServer: false)
        } catch {
            return StatusCheck(
                topic: "server", level: .problem,
                message: "No speech-dispatcher is running for you (nothing answers at \(socket)).",
                fix: "It starts when a client needs it: 'spd-say -o utter hello' or 'utter status --speak' starts it.")
        }
        let pids = server.processes().map { String($0.pid) }
        let which = pids.isEmpty ? "" : " (pid \(pids.joined(separator: ", ")))"
        let modules = connection.outputModules() ?? []
        if modules.contains("utter") {
            return StatusCheck(
                topic: "server", level: .ok, message: "speech-dispatcher is running\(which) and lists utter.")
        }
        return StatusCheck(
            topic: "server", level: .problem,
            message:
                "The running speech-dispatcher\(which) does not list utter (it has \(modules.isEmpty ? "no modules" : modules.joined(separator: ", "))): it looks for modules only when it starts.",
            fix: pids.isEmpty
                ? "Restart it; the next client starts it again."
                : "Restart it: kill \(pids.joined(separator: " ")); the next client starts it again.")
    }

    private func audio(_ settings: SpeechdSettings?) -> [StatusCheck] {
        var checks: [StatusCheck] = []
        var configuration = UtterConfiguration()
        let confPath = folders.utterConf
        if case .success(let text) = readTextFile(confPath) {
            let parsed = UtterConfiguration.parse(text)
            configuration = parsed.configuration
            for issue in parsed.issues {
                checks.append(
                    StatusCheck(
                        topic: "configuration", level: .note,
                        message: "\(folders.shown(confPath)) \(issue)."))
            }
        }
        let (device, source): (String, String) =
            if let device = configuration.audioDevice {
                (device, "AudioDevice in \(folders.shown(confPath))")
            } else if let device = settings?.alsaDevice, device != "NULL" {
                (device, "AudioALSADevice in \(folders.shown(folders.speechdConf))")
            } else {
                ("default", "ALSA's default")
            }
        var alsaText: String? = nil
        if let file = configuration.audioConfigurationFile {
            guard case .success(let text) = readTextFile(file) else {
                checks.append(
                    StatusCheck(
                        topic: "audio", level: .problem,
                        message: "AudioConfigurationFile \(file) in \(folders.shown(confPath)) cannot be read.",
                        fix: "Correct or remove the AudioConfigurationFile line in \(folders.shown(confPath))."))
                return checks
            }
            alsaText = text
        }
        let soundServer =
            if let runtime = folders.runtime, FileSystem.exists(runtime + "/pipewire-0") {
                "PipeWire"
            } else if let runtime = folders.runtime, FileSystem.exists(runtime + "/pulse/native") {
                "PulseAudio"
            } else {
                "none found"
            }
        let alsaAsked = configuration.asksForALSA || settings?.outputMethod == "alsa"
        let alsa = ALSADevice(name: device, configurationText: alsaText)
        let route = SoundSession.Route(configuration: configuration, alsaAsked: alsaAsked) { alsa }
        let problem = route.problem(alsa: alsa)
        if let api = route.library {
            var how = "AudioBackend \(configuration.audioBackend.rawValue)"
            if let pluginOf = route.pluginServer {
                how += ", for the ALSA device \"\(device)\" (\(source)), which is \(pluginOf)'s plugin: a STOP fades here, through the plugin it would cut"
            }
            if let error = problem {
                checks.append(
                    StatusCheck(
                        topic: "audio", level: .problem,
                        message: "Utter plays through the session's sound server with \(api) (\(how)), which refuses a stream: \(error)",
                        fix:
                            "Start your sound server (sound server: \(soundServer)), or set AudioBackend alsa in \(folders.shown(folders.userUtterConf))."
                    ))
            } else {
                checks.append(
                    StatusCheck(
                        topic: "audio", level: .ok,
                        message: "Utter plays through the session's sound server with \(api) (\(how)), which opens a stream; sound server: \(soundServer)."
                    ))
            }
        } else if let reason = problem {
            checks.append(
                StatusCheck(
                    topic: "audio", level: .problem,
                    message: "The ALSA device \"\(device)\" (\(source)) does not open: \(reason).",
                    fix:
                        "'aplay -L' lists the devices: name one with AudioDevice in \(folders.shown(folders.userUtterConf)), or start your sound server (sound server: \(soundServer))."
                ))
        } else {
            checks.append(
                StatusCheck(
                    topic: "audio", level: .ok,
                    message:
                        "Utter plays through ALSA on \"\(device)\" (\(source)), which opens; sound server: \(soundServer)."
                ))
        }
        return checks
    }

    /// The neural voices installed and whether ONNX Runtime, which they run on, is found; nil
    /// when none is installed.
    private func neuralVoices() -> StatusCheck? {
        var configuration = UtterConfiguration()
        if case .success(let text) = readTextFile(folders.utterConf) {
            configuration = UtterConfiguration.parse(text).configuration
        }
        let installed = NeuralVoiceLibrary.voiceFolders(in: VoiceLibrary.folders(configuration: configuration))
        guard !installed.isEmpty else { return nil }
        let names = installed.map(\.name).joined(separator: ", ")
        switch NeuralVoiceLibrary.runtime(configuration: configuration) {
        case .success(let runtime):
            return StatusCheck(
                topic: "neural voices", level: .ok,
                message: "\(names) on ONNX Runtime \(runtime.version) (\(folders.shown(runtime.libraryPath))).")
        case .failure(let error):
            return StatusCheck(
                topic: "neural voices", level: .problem,
                message: "\(names) installed, but not offered: \(error).",
                fix: "python3 -m pip install --user --break-system-packages --no-deps onnxruntime   (or name its library in utter.conf: OnnxRuntimeLibrary PATH)")
        }
    }

    private func log() -> StatusCheck {
        guard let path = folders.log else {
            return StatusCheck(
                topic: "log", level: .note, message: "XDG_RUNTIME_DIR is not set: no log folder to look in.")
        }
        guard case .success(let text) = readTextFile(path, limit: 64 << 20) else {
            return StatusCheck(
                topic: "log", level: .note,
                message: "No \(folders.shown(path)) yet: Utter has not run under your server.")
        }
        let errors = text.split(separator: "\n").filter { $0.contains(" error: ") || $0.contains(" critical: ") }
        guard !errors.isEmpty else {
            return StatusCheck(topic: "log", level: .ok, message: "\(folders.shown(path)) has no errors.")
        }
        return StatusCheck(
            topic: "log", level: .note,
            message: "\(folders.shown(path)) ends its errors with:\n"
                + errors.suffix(3).map { "    \($0)" }.joined(separator: "\n"))
    }

    /// Has the user's speech-dispatcher speak a sentence with Utter (starting the server if none
    /// runs) and waits for its end.
    private func speakTest() -> StatusCheck {
        let sentence = "Utter is working."
        let connection: SpeechDispatcherConnection
        do {
            connection = try SpeechDispatcherConnection(clientName: "utter-status", startingServer: true)
        } catch {
            return StatusCheck(
                topic: "speech", level: .problem, message: "speech-dispatcher cannot be started: \(error).",
                fix: "Install it: sudo apt install speech-dispatcher")
        }
        // The server would speak with its default module instead of one it does not have.
        guard connection.outputModules()?.contains("utter") == true else {
            return StatusCheck(
                topic: "speech", level: .problem,
                message: "No test sentence: speech-dispatcher does not list utter, so it cannot speak with it.",
                fix: "See the problems above.")
        }
        guard connection.speak(sentence, module: "utter", timeout: 15) else {
            return StatusCheck(
                topic: "speech", level: .problem,
                message: "speech-dispatcher did not finish speaking a test sentence with Utter within 15 s.",
                fix:
                    "See the problems above and \(folders.log.map(folders.shown) ?? "utter.log in speech-dispatcher's log folder")."
            )
        }
        return StatusCheck(topic: "speech", level: .ok, message: "speech-dispatcher spoke \"\(sentence)\" with Utter.")
    }

    /// The report as people read it: one finding a line (a fix under each problem), then a verdict.
    var text: String {
        var lines = ["Utter \(UtterVersion.current)"]
        for check in checks {
            lines.append("\(check.level.rawValue) \(check.topic): \(check.message)")
            if let fix = check.fix { lines.append("  fix: \(fix)") }
        }
        let count = problemCount
        lines.append(count == 0 ? "All is well." : count == 1 ? "1 problem." : "\(count) problems.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report for scripts.
    var json: String {
        let items = checks.map { check -> JSONValue in
            [
                "topic": JSONValue(check.topic), "level": JSONValue(check.level == .problem ? "problem" : check.level.rawValue),
                "message": JSONValue(check.message), "fix": check.fix.map { JSONValue($0) } ?? .null,
            ]
        }
        let report: JSONValue = [
            "version": JSONValue(UtterVersion.current), "healthy": JSONValue(problemCount == 0),
            "problems": JSONValue(problemCount), "checks": JSONValue(items),
        ]
        return JSONWriter.text(of: report) + "\n"
    }
}
