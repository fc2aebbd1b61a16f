public import ArgumentParser
import UtterKit

/// `utter`: Utter's voices and speech, for people rather than for speech-dispatcher.
public struct UtterCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "utter",
        abstract: "Utter, a speech-dispatcher voice module: its voices, speech, installation and health.",
        discussion: """
            speech-dispatcher runs Utter as the output module `utter` (sd_utter). This command uses the \
            same voices and the same audio path directly.
            """,
        version: UtterVersion.current,
        subcommands: [Voices.self, VoiceCommand.self, Say.self, Read.self, Play.self, Status.self, HistoryCommand.self, Install.self, Uninstall.self])

    public init() {}
}
