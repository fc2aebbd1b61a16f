import Foundation
import Glibc
import TestSupport
import Testing

/// `utter install --user`, `utter uninstall --user` and `utter status`, run as a user runs them in
/// a home of their own, against the real speech-dispatcher and a real ALSA device (a file).
///
/// They assume no system-wide Utter (the package installs sd_utter in /usr/lib/…, which `status`
/// would rightly find).
@Suite(.serialized) struct UserSetupTests {
    /// A user: a home, a runtime folder inside it, and the environment their programs get.
    final class User {
        let folder = TemporaryFolder(prefix: "utter-home")
        var home: String { folder.path }
        var runtime: String { home + "/run" }
        var capture: String { home + "/captured.raw" }

        init(withDevice: Bool = true) {
            mkdir(runtime, 0o700)
            if withDevice {
                writeFile(
                    home + "/.asoundrc",
                    "pcm.!default { type file slave.pcm \"null\" file \"\(capture)\" format \"raw\" }\n")
            }
        }

        var environment: [String] {
            ["PATH=/usr/bin:/bin", "LANG=C.UTF-8", "HOME=\(home)", "XDG_RUNTIME_DIR=\(runtime)", "COLUMNS=100"]
        }

        func utter(_ arguments: String...) -> ChildProcess {
            ChildProcess.run([utterPath] + arguments, environment: environment, timeout: 60)
        }

        func run(_ arguments: String...) -> ChildProcess {
            ChildProcess.run(arguments, environment: environment, timeout: 60)
        }

        /// The pids of speech-dispatcher servers started for this user's socket.
        var servers: [Int32] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return names.compactMap { name in
                guard let pid = Int32(name), let raw = readFile("/proc/\(name)/cmdline") else { return nil }
                let line = String(decoding: raw.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
                return line.contains("speech-dispatcher --spawn") && line.contains(runtime) ? pid : nil
            }
        }

        deinit {
            for pid in servers { kill(pid, SIGKILL) }
        }
    }

    /// Every file and folder under `root`: path, mode, and content for files.
    private func snapshot(_ root: String) -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            // The runtime folder is the server's and the sound libraries', not the installer's.
            if relative == "run" || relative.hasPrefix("run/") { continue }
            let path = root + "/" + relative
            var status = stat()
            lstat(path, &status)
            let content = (status.st_mode & S_IFMT) == S_IFREG ? (readFile(path) ?? []) : []
            result[relative] = "\(String(status.st_mode, radix: 8)) \(content.count) \(content.hashValue)"
        }
        return result
    }

    private static let addModuleLines = """
        # A user's own configuration whose AddModule lines turn module detection off.
        AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"
        DefaultModule espeak-ng
        LanguageDefaultModule "de" "espeak-ng"

        """

    @Test func `install and uninstall round trip: every file and speechd.conf byte for byte back`() throws {
        let user = User()
        let config = user.home + "/.config/speech-dispatcher"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        writeFile(config + "/speechd.conf", Self.addModuleLines)
        try FileManager.default.createDirectory(atPath: user.home + "/.local/bin", withIntermediateDirectories: true)
        writeFile(user.home + "/.local/bin/utter", "#!/bin/sh\necho an older utter\n")
        chmod(user.home + "/.local/bin/utter", 0o755)
        let before = snapshot(user.home)

        let install = user.utter("install", "--user", "--default", "--languages", "en", "de")
        #expect(install.status == 0, "\(install)")
        #expect(
            install.standardOutput == """
                installed: sd_utter → ~/.local/libexec/speech-dispatcher-modules/
                installed: utter → ~/.local/bin/
                installed: key names → ~/.local/share/utter/keys/
                installed: utter.conf → ~/.config/speech-dispatcher/modules/utter.conf
                installed: ~/.config/speech-dispatcher/speechd.conf: AddModule, DefaultModule, LanguageDefaultModule en de
                No speech-dispatcher is running for you: the next one started sees the change.

                """)
        let speechd = readText(config + "/speechd.conf")
        #expect(
            speechd == """
                # A user's own configuration whose AddModule lines turn module detection off.
                AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"

                # Added by 'utter install --user' ('utter uninstall --user' takes it out again).
                AddModule "utter" "sd_utter" "utter.conf"
                DefaultModule utter
                LanguageDefaultModule "en" "utter"
                LanguageDefaultModule "de" "utter"

                """)
        #expect(access(user.home + "/.local/libexec/speech-dispatcher-modules/sd_utter", X_OK) == 0)
        #expect(readFile(user.home + "/.local/bin/utter") == readFile(utterPath))
        #expect(readFile(user.home + "/.local/share/utter/keys/de.conf") == readFile(root + "/conf/keys/de.conf"))
        #expect(
            readFile(user.home + "/.config/speech-dispatcher/modules/utter.conf") == readFile(root + "/conf/utter.conf"))

        // The installed module is what the user's speech-dispatcher now runs by default, and heard.
        let spoken = user.run("/usr/bin/spd-say", "-w", "Installed for one user.")
        #expect(spoken.status == 0, "\(spoken)")
        #expect(littleEndianSamples(readFile(user.capture) ?? []).count > 11025)

        let uninstall = user.utter("uninstall", "--user")
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(
            uninstall.standardOutput.hasPrefix(
                """
                ~/.config/speech-dispatcher/speechd.conf restored
                ~/.local/bin/utter restored
                Uninstalled.
                Restarted your speech-dispatcher; its modules: espeak-ng.

                """), "\(uninstall.standardOutput)")
        for pid in user.servers { kill(pid, SIGTERM) }
        usleep(300_000)
        try? FileManager.default.removeItem(atPath: user.capture)
        try? FileManager.default.removeItem(atPath: user.runtime + "/speech-dispatcher")
        #expect(snapshot(user.home) == before)

        let again = user.utter("uninstall", "--user")
        #expect(again.status == 1)
        #expect(again.standardError == "Error: Utter is not installed for you: ~/.local/state/utter/user-install does not exist.\n")
    }

    @Test func `as the system voice, the user's own modules are turned off, and uninstall puts the file back byte for byte`()
        throws
    {
        let user = User()
        let config = user.home + "/.config/speech-dispatcher"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        writeFile(config + "/speechd.conf", Self.addModuleLines)
        let before = snapshot(user.home)
        let install = user.utter("install", "--user", "--system-voice")
        #expect(install.status == 0, "\(install)")
        #expect(
            install.standardOutput.contains(
                "installed: ~/.config/speech-dispatcher/speechd.conf: AddModule utter alone (espeak-ng off), DefaultModule\n"),
            "\(install.standardOutput)")
        #expect(
            readText(config + "/speechd.conf") == """
                # A user's own configuration whose AddModule lines turn module detection off.
                # Off while Utter is the system voice: AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"
                # Off while Utter is the system voice: LanguageDefaultModule "de" "espeak-ng"

                # Added by 'utter install --user' ('utter uninstall --user' takes it out again).
                AddModule "utter" "sd_utter" "utter.conf"
                DefaultModule utter

                """)
        // German still speaks, with Utter's espeak-ng voice.
        let spoken = user.run("/usr/bin/spd-say", "-w", "-l", "de", "Guten Tag.")
        #expect(spoken.status == 0, "\(spoken)")
        #expect(littleEndianSamples(readFile(user.capture) ?? []).count > 11025)
        let uninstall = user.utter("uninstall", "--user")
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(uninstall.standardOutput.hasPrefix("~/.config/speech-dispatcher/speechd.conf restored\n"))
        for pid in user.servers { kill(pid, SIGTERM) }
        usleep(300_000)
        try? FileManager.default.removeItem(atPath: user.capture)
        try? FileManager.default.removeItem(atPath: user.runtime + "/speech-dispatcher")
        #expect(snapshot(user.home) == before)
    }

    @Test func `uninstall keeps a configuration file the user changed since`() {
        let user = User()
        #expect(user.utter("install", "--user").status == 0)
        let conf = user.home + "/.config/speech-dispatcher/modules/utter.conf"
        writeFile(conf, "NormalRate 200\n")
        let uninstall = user.utter("uninstall", "--user")
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(uninstall.standardOutput.hasPrefix("~/.config/speech-dispatcher/modules/utter.conf was changed since: left as it is\n"))
        #expect(readFile(conf) == Array("NormalRate 200\n".utf8))
        #expect(access(user.home + "/.local/libexec/speech-dispatcher-modules/sd_utter", F_OK) != 0)
    }

    /// The report with the server's pid written as N.
    private func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: #"\(pid [0-9, ]+\)"#, with: "(pid N)", options: .regularExpression)
    }

    @Test func `status on a healthy set-up says so, speaks, and exits 0`() throws {
        let user = User()
        // status opens the device to check it, which would empty a plain file device: append instead.
        writeFile(
            user.home + "/.asoundrc",
            "pcm.!default { type file slave.pcm \"null\" file \"| cat >> \(user.capture)\" format \"raw\" }\n")
        #expect(user.utter("install", "--user", "--default").status == 0)
        let status = user.utter("status", "--speak")
        #expect(status.status == 0, "\(status)")
        #expect(
            normalized(status.standardOutput) == """
                Utter 0.1.0
                ok module: sd_utter is installed in ~/.local/libexec/speech-dispatcher-modules.
                ok configuration: ~/.config/speech-dispatcher/speechd.conf lets speech-dispatcher detect its modules, Utter among them.
                ok default: Utter is the default module (DefaultModule in ~/.config/speech-dispatcher/speechd.conf).
                note clients: Orca, spd-say and Firefox speak with Utter; Chromium and Qt applications list the voices of every module speech-dispatcher detects too, and for a language take the first that fits, which need not be Utter's. 'utter install --user --system-voice' makes Utter the only module loaded (espeak-ng's voices stay, as Utter's own).
                ok server: speech-dispatcher is running (pid N) and lists utter.
                ok audio: Utter plays through ALSA on "default" (ALSA's default), which opens; sound server: none found.
                ok japanese: Japanese is read with MeCab and the dictionary in /var/lib/mecab/dic/ipadic-utf8 (mecab-ipadic-utf8).
                ok log: ~/run/speech-dispatcher/log/utter.log has no errors.
                ok speech: speech-dispatcher spoke "Utter is working." with Utter.
                All is well.

                """)
        let heard = littleEndianSamples(readFile(user.capture) ?? [])
        #expect(heard.count > 11025, "\(heard.count) samples heard")
        #expect(rootMeanSquare(heard) > 500)

        let json = user.utter("status", "--json")
        #expect(json.status == 0)
        let parsed = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(parsed["healthy"] as? Bool == true && parsed["version"] as? String == "0.1.0")
        let checks = try #require(parsed["checks"] as? [[String: Any]])
        #expect(
            checks.map { $0["topic"] as? String } == [
                "module", "configuration", "default", "clients", "server", "audio", "japanese", "log",
            ])
        // Utter the default but not the only module: a note on which clients reach it.
        #expect(checks.map { $0["level"] as? String } == ["ok", "ok", "ok", "note", "ok", "ok", "ok", "ok"])
        #expect(checks.allSatisfy { $0["fix"] is NSNull })
    }

    @Test func `status names each broken set-up with its fix and exits 1`() throws {
        // Nothing installed, no server, no device the user's ALSA knows by that name.
        let user = User()
        let conf = user.home + "/.config/speech-dispatcher"
        try FileManager.default.createDirectory(atPath: conf + "/modules", withIntermediateDirectories: true)
        writeFile(conf + "/speechd.conf", Self.addModuleLines)
        writeFile(conf + "/modules/utter.conf", "AudioDevice \"nosuchdevice\"\nNoSuchSetting 1\n")
        let status = user.utter("status")
        #expect(status.status == 1)
        #expect(
            status.standardOutput == """
                Utter 0.1.0
                PROBLEM module: sd_utter is not installed where speech-dispatcher looks for modules (~/.local/libexec/speech-dispatcher-modules, /usr/lib/speech-dispatcher-modules, /usr/libexec/speech-dispatcher-modules).
                  fix: Run 'utter install --user' with a build of Utter, or install the utter package.
                PROBLEM configuration: ~/.config/speech-dispatcher/speechd.conf has AddModule lines (espeak-ng), which turn off module detection, and none for utter.
                  fix: Add this line to ~/.config/speech-dispatcher/speechd.conf: AddModule "utter" "sd_utter" "utter.conf"  (or run 'utter install --user')
                note default: Utter is not the default module (espeak-ng is): clients use it when they ask for it, as Orca does when it is chosen as Orca's synthesizer. 'utter install --user --default' makes it the default.
                note clients: Clients speak with Utter when they choose it; Chromium and Qt applications list the voices of espeak-ng too, and for a language take the first that fits, which need not be Utter's. 'utter install --user --system-voice' makes Utter the only module loaded (espeak-ng's voices stay, as Utter's own).
                PROBLEM server: No speech-dispatcher is running for you (nothing answers at ~/run/speech-dispatcher/speechd.sock).
                  fix: It starts when a client needs it: 'spd-say -o utter hello' or 'utter status --speak' starts it.
                note configuration: ~/.config/speech-dispatcher/modules/utter.conf line 2: unknown setting "NoSuchSetting", skipped.
                PROBLEM audio: The ALSA device "nosuchdevice" (AudioDevice in ~/.config/speech-dispatcher/modules/utter.conf) does not open: No such file or directory.
                  fix: 'aplay -L' lists the devices: name one with AudioDevice in ~/.config/speech-dispatcher/modules/utter.conf, or start your sound server (sound server: none found).
                ok japanese: Japanese is read with MeCab and the dictionary in /var/lib/mecab/dic/ipadic-utf8 (mecab-ipadic-utf8).
                note log: No ~/run/speech-dispatcher/log/utter.log yet: Utter has not run under your server.
                4 problems.

                """)
        #expect(status.standardError == "")
    }

    @Test func `status finds a running server that started before Utter was installed`() {
        let user = User()
        // A server started before the module was there: it never looks again.
        #expect(user.run("/usr/bin/spd-say", "-O").status == 0)
        let modules = user.home + "/.local/libexec/speech-dispatcher-modules"
        mkdir(user.home + "/.local", 0o755)
        mkdir(user.home + "/.local/libexec", 0o755)
        mkdir(modules, 0o755)
        mkdir(user.home + "/.local/share", 0o755)
        #expect(link(modulePath(), modules + "/sd_utter") == 0 || symlink(modulePath(), modules + "/sd_utter") == 0)
        let status = user.utter("status")
        #expect(status.status == 1)
        let lines = normalized(status.standardOutput).split(separator: "\n")
        #expect(
            lines.contains(
                "PROBLEM server: The running speech-dispatcher (pid N) does not list utter (it has espeak-ng): it looks for modules only when it starts."
            ), "\(status.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("  fix: Restart it: kill ") && $0.hasSuffix("; the next client starts it again.") })
        // install restarts it, after which it lists utter.
        let install = user.utter("install", "--user")
        #expect(install.standardOutput.hasSuffix("Restarted your speech-dispatcher; its modules: espeak-ng, utter.\n"), "\(install)")
        #expect(user.utter("status").standardOutput.contains("ok server: speech-dispatcher is running"))
    }

    @Test func `help texts`() {
        let user = User(withDevice: false)
        #expect(
            user.utter("status", "--help").standardOutput == """
                OVERVIEW: Tell whether Utter works with your speech-dispatcher, and if not, why and what to do.

                Looks at where sd_utter is installed, whether your speechd.conf lets speech-dispatcher start it and
                makes it the default, which clients speak with it (the default module reaches Orca, spd-say and
                Firefox; Chromium and Qt applications need it to be the only module loaded), whether your
                speech-dispatcher runs and lists it, whether Utter's audio device opens, and the last errors in
                utter.log. Each problem comes with its fix. The exit status is 1 when there is a problem.

                USAGE: utter status [--speak] [--json]

                OPTIONS:
                  --speak                 Also have speech-dispatcher speak a test sentence with Utter (starting it
                                          if needed).
                  --json                  Print the report as JSON, for scripts.
                  --version               Show the version.
                  -h, --help              Show help information.


                """)
        #expect(
            user.utter("install", "--help").standardOutput == """
                OVERVIEW: Install Utter for you, where your speech-dispatcher finds it.

                Copies sd_utter to ~/.local/libexec/speech-dispatcher-modules/, this utter to ~/.local/bin/, the
                key names to ~/.local/share/utter/keys/ and, when you have none, utter.conf to
                ~/.config/speech-dispatcher/modules/. Adds Utter to your speechd.conf when its AddModule lines
                would hide it, and with --default or --languages makes it your default module; with --system-voice
                Utter is also the only module speech-dispatcher loads for you, so that clients that list every
                module's voices and pick one for a language (Chromium, Qt applications such as Okular and KMouth)
                speak with Utter too (espeak-ng's voices are still there, as Utter's own). Where the utter package
                is installed, only the speechd.conf part is done. Restarts your running speech-dispatcher so that
                it finds Utter. Every step is recorded: 'utter uninstall --user' undoes exactly these steps.

                USAGE: utter install [--user] [--default] [--system-voice] [--languages <languages> ...]

                OPTIONS:
                  --user                  Install for the current user (the utter package installs for everyone).
                  --default               Make Utter your default speech-dispatcher module.
                  --system-voice          Make Utter your default module and the only one speech-dispatcher loads
                                          for you.
                  --languages <languages> Make Utter your default module for these languages (e.g. en de).
                  --version               Show the version.
                  -h, --help              Show help information.


                """)
        #expect(
            user.utter("uninstall", "--help").standardOutput == """
                OVERVIEW: Undo what 'utter install --user' did.

                Removes the files it created and puts back the ones it replaced, exactly as they were, except a
                configuration file you have changed since (which is kept). Restarts your running speech-dispatcher
                so that it lets go of Utter.

                USAGE: utter uninstall [--user]

                OPTIONS:
                  --user                  Uninstall what was installed for the current user.
                  --version               Show the version.
                  -h, --help              Show help information.


                """)
        #expect(
            user.utter("--help").standardOutput == """
                OVERVIEW: Utter, a speech-dispatcher voice module: its voices, speech, installation and health.

                speech-dispatcher runs Utter as the output module `utter` (sd_utter). This command uses the same
                voices and the same audio path directly.

                USAGE: utter <subcommand>

                OPTIONS:
                  --version               Show the version.
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  voices                  List the voices: name, primary language, identifier.
                  voice                   Make a clip voice, add a Piper voice, check, remove or list voices.
                  say                     Speak text aloud with an Utter voice, or render it to a sound file.
                  read                    Read a long text aloud, sentence by sentence, from where you stopped.
                  play                    Read a talk aloud from a scenario file, or render it to a sound file.
                  status                  Tell whether Utter works with your speech-dispatcher, and if not, why and
                                          what to do.
                  history                 List what the Utter module just said; speak or save a message again.
                  install                 Install Utter for you, where your speech-dispatcher finds it.
                  uninstall               Undo what 'utter install --user' did.

                  See 'utter help <subcommand>' for detailed help.

                """)
        let refused = user.utter("install")
        #expect(refused.status == 64)
        #expect(refused.standardError.hasPrefix("Error: Say --user: Utter installs for the current user.\n"))
    }
}

private var root: String { String(#filePath.dropLast("/Tests/UtterCLITests/UserSetupTests.swift".count)) }
