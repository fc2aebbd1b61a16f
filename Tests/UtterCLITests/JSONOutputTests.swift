import History
import Testing
import UtterKit
@testable import UtterCLI

/// What `utter status --json`, `utter history --json` write: one line of JSON, escaped, in a fixed order.
@Suite struct JSONOutputTests {
    @Test func `status --json gives the version, the verdict and every check, a missing fix as null`() {
        let report = StatusReport(
            folders: UserFolders(),
            checks: [
                StatusCheck(topic: "module", level: .ok, message: "sd_utter is installed in ~/.local."),
                StatusCheck(topic: "japanese", level: .note, message: "No \"MeCab\" dictionary.", fix: "apt install x"),
                StatusCheck(
                    topic: "log", level: .problem, message: "ends its errors with:\n    C:\\dir\tnow \u{1B}[0m",
                    fix: "See it."),
            ])
        let expected = [
            #"{"version":"\#(UtterVersion.current)","healthy":false,"problems":1,"checks":["#,
            #"{"topic":"module","level":"ok","message":"sd_utter is installed in ~/.local.","fix":null},"#,
            #"{"topic":"japanese","level":"note","message":"No \"MeCab\" dictionary.","fix":"apt install x"},"#,
            #"{"topic":"log","level":"problem","message":"ends its errors with:\n    C:\\dir\tnow \u001B[0m","#,
            #""fix":"See it."}]}"#, "\n",
        ]
        #expect(report.json == expected.joined())
        #expect(
            StatusReport(folders: UserFolders(), checks: []).json
                == #"{"version":"\#(UtterVersion.current)","healthy":true,"problems":0,"checks":[]}"# + "\n")
    }

    @Test func `history --json numbers the messages from the newest, with times in milliseconds`() {
        let module = HistoryClient.Module(
            path: "/run/history.socket", pid: 4321,
            entries: [
                HistoryEntry(text: "Line one\nline \"two\"", kind: .speak, voice: "German", language: "de", time: 1_760_000_000_123),
                HistoryEntry(text: "a", kind: .character, voice: "English (America)", language: "en-US", time: 1_759_999_999_000),
            ])
        let expected = [
            #"{"module":4321,"messages":["#,
            #"{"number":1,"time":1760000000123,"kind":"speak","voice":"German","language":"de","text":"Line one\nline \"two\""},"#,
            #"{"number":2,"time":1759999999000,"kind":"char","voice":"English (America)","language":"en-US","text":"a"}]}"#, "\n",
        ]
        #expect(UtterCommand.HistoryCommand.json(module) == expected.joined())
    }
}
