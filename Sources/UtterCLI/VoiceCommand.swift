import ArgumentParser
import System

extension UtterCommand {
    /// `utter voice`: clip voices made, checked and listed.
    struct VoiceCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "voice",
            abstract: "Make a clip voice, add a Piper voice, check, remove or list voices.",
            subcommands: [Create.self, Add.self, Check.self, Remove.self, List.self])

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: VoiceListing.abstract)

            @OptionGroup var listing: VoiceListing

            func run() throws {
                try listing.printVoices()
            }
        }
    }
}

/// `count` and `noun`, in the plural unless the count is one: `1 clip`, `3 clips`.
func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}

/// Puts the voice folder `building` in the place of `target` (`name` in its parent), replacing a
/// voice already there: moved aside first, since a folder can only replace an empty one.
func moveVoiceFolder(_ building: String, to target: String, name: String) throws {
    guard FileSystem.exists(target) else {
        try FileSystem.move(building, to: target)
        return
    }
    let old = try FileSystem.makeTemporaryDirectory(prefix: "\(FileSystem.parent(of: target))/.\(name).utter-old-")
    try FileSystem.move(target, to: old)
    try FileSystem.move(building, to: target)
    try FileSystem.removeTree(old)
}
