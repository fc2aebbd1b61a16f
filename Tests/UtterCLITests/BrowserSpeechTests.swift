import Foundation
import Glibc
import TestSupport
import Testing

/// A web page's speech in Debian's Chromium (`--enable-speech-dispatcher`, headless), driven by
/// `Clients/browser_speech.py` against the user's own speech-dispatcher, which the browser starts.
///
/// Chromium lists every loaded module's voices, each module's under its name, and gives an
/// utterance that sets only `lang` the first voice of that language: espeak-ng's while espeak-ng is
/// loaded (measured: `SET SELF OUTPUT_MODULE espeak-ng` in the server's log), Utter's when Utter is
/// the system voice.
@Suite(.serialized) struct BrowserSpeechTests {
    private typealias User = UserSetupTests.User

    private static let client = String(#filePath.dropLast("BrowserSpeechTests.swift".count)) + "Clients/browser_speech.py"

    @Test func `with Utter as the system voice a page's English and Japanese are heard through Utter, unasked`() throws {
        let user = User()
        writeFile(
            user.home + "/.asoundrc",
            "pcm.!default { type file slave.pcm \"null\" file \"| cat >> \(user.capture)\" format \"raw\" }\n")
        #expect(user.utter("install", "--user", "--system-voice").status == 0)
        let browser = user.run(
            "/usr/bin/python3", Self.client, "/usr/bin/chromium", "60", "en-US", "A web page speaks English.",
            "ja-JP", "ウェブページが日本語を話します。")
        // Read at once: the server the browser started ends a few seconds after its last client.
        let history = user.utter("history", "--json")
        #expect(browser.status == 0, "\(browser)")
        let printed = browser.standardOutput.split(separator: "\n").compactMap { (line: Substring) in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
        #expect(printed.count == 3, "\(browser.standardOutput)")
        guard printed.count == 3 else { return }
        // Utter's list alone, each name with the module's after it as Chromium shows them.
        let listed = printed[0]["voices"] as? Int ?? 0
        #expect(listed > 100, "\(printed[0])")
        let matching = printed[0]["matching"] as? [String: [String]] ?? [:]
        #expect(matching["en-US"]?.first == "English (America) utter", "\(matching)")
        #expect(matching["ja-JP"]?.first == "Japanese utter", "\(matching)")
        for utterance in printed.dropFirst() {
            #expect(utterance["events"] as? [String] == ["start", "end"], "\(utterance)")
        }
        let parsed = try? JSONSerialization.jsonObject(with: Data(history.standardOutput.utf8)) as? [String: Any]
        let messages = parsed?["messages"] as? [[String: Any]] ?? []
        let spoken = messages.compactMap { $0["text"] as? String }
        #expect(spoken.contains("A web page speaks English."), "\(history)")
        // speech-dispatcher's symbols for Japanese read 。 as a pause (a space).
        #expect(spoken.contains { (text: String) in text.hasPrefix("ウェブページが日本語を話します") }, "\(history)")
        #expect(messages.compactMap { $0["voice"] as? String }.sorted() == ["English (America)", "Japanese"])
        let heard = littleEndianSamples(readFile(user.capture) ?? [])
        #expect(heard.count > 22050, "\(heard.count) samples heard")
        #expect(rootMeanSquare(heard) > 500)
        #expect(user.utter("uninstall", "--user").status == 0)
    }
}
