import ArgumentParser

extension UtterCommand {
    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Install Utter for you, where your speech-dispatcher finds it.",
            discussion: """
                Copies sd_utter to ~/.local/libexec/speech-dispatcher-modules/, this utter to \
                ~/.local/bin/, the key names to ~/.local/share/utter/keys/ and, when you have none, \
                utter.conf to ~/.config/speech-dispatcher/modules/. Adds Utter to your speechd.conf \
                when its AddModule lines would hide it, and with --default or --languages makes it your \
                default module; with --system-voice Utter is also the only module speech-dispatcher \
                loads for you, so that clients that list every module's voices and pick one for a \
                language (Chromium, Qt applications such as Okular and KMouth) speak with Utter too \
                (espeak-ng's voices are still there, as Utter's own). Where the utter package is \
                installed, only the speechd.conf part is done. \
                Restarts your running speech-dispatcher so that it finds Utter. Every step is recorded: \
                'utter uninstall --user' undoes exactly these steps.
                """)

        @Flag(help: "Install for the current user (the utter package installs for everyone).")
        var user = false

        @Flag(name: .customLong("default"), help: "Make Utter your default speech-dispatcher module.")
        var makeDefault = false

        @Flag(
            name: .customLong("system-voice"),
            help: "Make Utter your default module and the only one speech-dispatcher loads for you.")
        var systemVoice = false

        @Option(
            name: .long, parsing: .upToNextOption,
            help: "Make Utter your default module for these languages (e.g. en de).")
        var languages: [String] = []

        func validate() throws {
            guard user else { throw ValidationError("Say --user: Utter installs for the current user.") }
            for language in languages where language.isEmpty || language.contains(where: { $0 == "\"" || $0.isWhitespace }) {
                throw ValidationError("'\(language)' is not a language tag.")
            }
        }

        func run() throws {
            let installation = UserInstallation(folders: UserFolders())
            for line in try installation.install(
                from: try UserInstallation.sources(), makeDefault: makeDefault, languages: languages,
                systemVoice: systemVoice)
            {
                print("installed: \(line)")
            }
            print(restartServer())
        }
    }

    struct Uninstall: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Undo what 'utter install --user' did.",
            discussion: """
                Removes the files it created and puts back the ones it replaced, exactly as they were, \
                except a configuration file you have changed since (which is kept). Restarts your running \
                speech-dispatcher so that it lets go of Utter.
                """)

        @Flag(help: "Uninstall what was installed for the current user.")
        var user = false

        func validate() throws {
            guard user else { throw ValidationError("Say --user: Utter uninstalls what was installed for the current user.") }
        }

        func run() throws {
            for line in try UserInstallation(folders: UserFolders()).uninstall() { print(line) }
            print("Uninstalled.")
            print(restartServer())
        }
    }
}

/// Restarts the user's running speech-dispatcher and says what came of it.
private func restartServer() -> String {
    do {
        guard let modules = try UserServer().restart() else {
            return "No speech-dispatcher is running for you: the next one started sees the change."
        }
        return "Restarted your speech-dispatcher; its modules: \(modules.joined(separator: ", "))."
    } catch {
        return "Your speech-dispatcher was stopped but did not start again (\(error)): the next client starts it."
    }
}
