import Glibc

/// A program run to its end, with what it printed.
public struct ChildProcess: Sendable {
    /// Its exit status (128 + the signal when a signal ended it).
    public var status: Int32
    public var standardOutput: String
    public var standardError: String

    /// Runs `arguments` (the first an absolute path) with `environment` and no input, waiting at
    /// most `timeout` seconds before killing it.
    public static func run(
        _ arguments: [String], environment: [String] = ["PATH=/usr/bin:/bin", "LANG=C.UTF-8"], timeout: Double = 60
    ) -> ChildProcess {
        let folder = TemporaryFolder(prefix: "utter-child")
        let child: Child
        do {
            child = try Child(
                arguments, environment: environment, output: .file(folder.file("stdout")),
                error: .file(folder.file("stderr")))
        } catch {
            return ChildProcess(status: 127, standardOutput: "", standardError: "cannot start \(arguments[0])")
        }
        if !child.wait(seconds: timeout) {
            child.signal(SIGKILL)
            child.wait(seconds: .infinity)
        }
        return ChildProcess(
            status: child.terminationStatus ?? -1, standardOutput: readText(folder.file("stdout")),
            standardError: readText(folder.file("stderr")))
    }
}
