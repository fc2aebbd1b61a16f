import Glibc

/// `utter voice create`, `check` and `list`, run as a user runs them, in a home of their own that
/// a module started on `rig` shares.
public struct VoiceAuthoring: ~Copyable {
    public let rig = CaptureRig()
    public var home: String { rig.folder }
    /// Where `utter voice create` puts a voice by default, and where sd_utter looks for voices.
    public var voices: String { home + "/.local/share/utter/voices" }

    public init() {}

    public func utter(_ arguments: String...) -> ChildProcess {
        ChildProcess.run(
            [utterPath] + arguments, environment: ["PATH=/usr/bin:/bin", "LANG=C.UTF-8", "HOME=\(home)"])
    }

    /// Writes `text` into a file in the home; its path.
    public func file(_ name: String, _ text: String) -> String {
        writeFile(home + "/" + name, text)
        return home + "/" + name
    }
}
