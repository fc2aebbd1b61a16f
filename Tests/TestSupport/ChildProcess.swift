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
        let outPath = folder.file("stdout")
        let errPath = folder.file("stderr")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var child: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        let spawned = withCleanSpawnAttributes { posix_spawn(&child, arguments[0], &actions, $0, argv, envp) }
        guard spawned == 0 else {
            return ChildProcess(status: 127, standardOutput: "", standardError: "cannot start \(arguments[0])")
        }
        var status: Int32 = 0
        var waited = 0.0
        while waitpid(child, &status, WNOHANG) == 0 {
            if waited > timeout {
                kill(child, SIGKILL)
                waitpid(child, &status, 0)
                break
            }
            usleep(10_000)
            waited += 0.01
        }
        let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ChildProcess(status: code, standardOutput: readText(outPath), standardError: readText(errPath))
    }

    private static func readText(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
