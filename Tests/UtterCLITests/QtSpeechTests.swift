import Foundation
import Glibc
import TestSupport
import Testing

/// A Qt application's speech (QTextToSpeech on Qt's speechd engine, as KDE's apps use it), driven
/// through Debian's PyQt6 against the user's own speech-dispatcher, which it starts itself.
///
/// Qt lists every loaded module's voices and, for a locale, takes the first one listed: so it
/// speaks with Utter without being told only when Utter is the only module loaded.
@Suite(.serialized) struct QtSpeechTests {
    private typealias User = UserSetupTests.User

    private static let client = String(#filePath.dropLast("QtSpeechTests.swift".count)) + "Clients/qt_speech.py"

    /// What the client printed, one JSON object a line.
    private func lines(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { (line: Substring) in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    /// The texts the Utter module spoke, newest first (`utter history`).
    private func spoken(by user: User) -> [String] {
        let history = user.utter("history", "--json")
        guard history.status == 0,
            let parsed = try? JSONSerialization.jsonObject(with: Data(history.standardOutput.utf8)) as? [String: Any],
            let messages = parsed["messages"] as? [[String: Any]]
        else { return [] }
        return messages.compactMap { $0["text"] as? String }
    }

    @Test func `with Utter as the system voice a Qt application speaks English and Japanese with it, unasked`() throws {
        let user = User()
        writeFile(
            user.home + "/.asoundrc",
            "pcm.!default { type file slave.pcm \"null\" file \"| cat >> \(user.capture)\" format \"raw\" }\n")
        let install = user.utter("install", "--user", "--system-voice")
        #expect(install.status == 0, "\(install)")
        #expect(
            install.standardOutput.contains(
                "installed: ~/.config/speech-dispatcher/speechd.conf: AddModule utter alone (no module detected), DefaultModule\n"
            ), "\(install.standardOutput)")
        let status = user.utter("status")
        #expect(
            status.standardOutput.contains(
                "ok clients: Utter is the only module speech-dispatcher loads (AddModule in ~/.config/speech-dispatcher/speechd.conf): Orca, spd-say, Firefox, Chromium and Qt applications speak with it.\n"
            ), "\(status.standardOutput)")

        let qt = user.run(
            "/usr/bin/python3", Self.client, "45", "en_US", "Qt speaks English.", "ja_JP", "日本語も話します。")
        #expect(qt.status == 0, "\(qt)")
        let printed = lines(qt.standardOutput)
        #expect(printed.count == 3, "\(qt.standardOutput)")
        guard printed.count == 3 else { return }
        #expect(printed[0]["state"] as? String == "Ready", "connected to the user's speech-dispatcher")
        // The voice made for the locale, not the first English one listed (en-029 reads as en_US).
        #expect(printed[1]["locale"] as? String == "en_US")
        #expect(printed[1]["voice"] as? String == "English (America)")
        #expect(printed[2]["locale"] as? String == "ja_JP")
        #expect(printed[2]["voice"] as? String == "Japanese")
        for result in printed.dropFirst() {
            #expect(result["states"] as? [String] == ["Speaking", "Ready"], "\(result)")
        }
        // Both went through Utter, and were heard.
        let texts = spoken(by: user)
        #expect(texts.contains("Qt speaks English."), "\(texts)")
        #expect(texts.contains { (text: String) in text.hasPrefix("日本語も話します") }, "\(texts)")
        let heard = littleEndianSamples(readFile(user.capture) ?? [])
        #expect(heard.count > 22050, "\(heard.count) samples heard")
        #expect(rootMeanSquare(heard) > 500)

        let uninstall = user.utter("uninstall", "--user")
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(!FileManager.default.fileExists(atPath: user.home + "/.config/speech-dispatcher/speechd.conf"))
    }

    @Test func `with Utter only the default module Qt lists every module's voices, and a chosen Utter voice speaks`() throws {
        let user = User()
        writeFile(
            user.home + "/.asoundrc",
            "pcm.!default { type file slave.pcm \"null\" file \"| cat >> \(user.capture)\" format \"raw\" }\n")
        #expect(user.utter("install", "--user", "--default").status == 0)
        let status = user.utter("status")
        #expect(
            status.standardOutput.contains(
                "note clients: Orca, spd-say and Firefox speak with Utter; Chromium and Qt applications list the voices of every module speech-dispatcher detects too"
            ), "\(status.standardOutput)")
        // "[en]" names are Utter's alone (a voice listed again under a language it also speaks).
        let qt = user.run("/usr/bin/python3", Self.client, "45", "en_US=English (Great Britain) [en]", "Chosen in Qt.")
        #expect(qt.status == 0, "\(qt)")
        let printed = lines(qt.standardOutput)
        #expect(printed.count == 2, "\(qt.standardOutput)")
        guard printed.count == 2 else { return }
        let voices = printed[1]["voices"] as? [String] ?? []
        #expect(voices.contains("English (Great Britain) [en]"), "Utter's voices are listed: \(voices)")
        #expect(
            voices.contains { (name: String) in name.contains("+") },
            "and espeak-ng's variants beside them: \(voices.prefix(20))")
        #expect(printed[1]["voice"] as? String == "English (Great Britain) [en]")
        #expect(printed[1]["states"] as? [String] == ["Speaking", "Ready"], "\(printed[1])")
        #expect(spoken(by: user).first == "Chosen in Qt.")
        #expect(user.utter("uninstall", "--user").status == 0)
    }
}
