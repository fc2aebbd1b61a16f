import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("speech-dispatcher under a speak+cancel storm")
struct StormServerTests {
    @Test("1,000 speak+cancel pairs: one terminal event each, nothing after it, no deadlock, RSS flat")
    func speakCancelStorm() async throws {
        try await withServer("storm", device: .paced) { rig in
            // Warm up first: the allocator's arenas and the module's caches reach their working size.
            let warmUp = try await rig.storm(pairs: 100, seed: 1)
            rig.check(warmUp.errors.isEmpty && warmUp.done, "warm-up: \(warmUp.errors.prefix(5)) \(warmUp.summary)")
            guard let module = rig.modulePID() else {
                rig.check(false, "the module is not running under the server")
                return
            }
            let before = residentKilobytes(module)
            let storm = try await rig.storm(pairs: 1000, seed: 2)
            let after = residentKilobytes(module)
            rig.check(storm.done, "the storm did not finish: \(storm.errors.prefix(5))")
            rig.check(storm.errors.isEmpty, "broken event rules: \(storm.errors.prefix(10))")
            rig.check(storm.summary.contains("pairs=1000"), "summary: \(storm.summary)")
            rig.check(
                // Under AddressSanitizer, RSS measures its quarantine of freed memory, not the module.
                after - before < 1024 || ProcessInfo.processInfo.environment["UTTER_SANITIZER"] != nil,
                "module RSS grew from \(before) kB to \(after) kB over 1,000 pairs")
            report("storm: \(storm.summary), module RSS \(before) kB → \(after) kB")
            // Still serving: a message after the storm is spoken to its end.
            let next = try await rig.session("speak", ["After the storm, calm."])
            rig.check(next.ok && next.events(of: next.spoken(0)).map(\.type) == ["begin", "end"], "\(next.events)")
        }
    }
}

/// The output of Clients/storm.py.
struct Storm {
    var summary = ""
    var errors: [String] = []
    var done = false
}

extension ServerRig {
    func storm(pairs: Int, seed: Int) async throws -> Storm {
        let script = Paths.testsDirectory.appendingPathComponent("Clients/storm.py").path
        let finished = try await run(
            Paths.python, [script, String(pairs), "120", String(seed)], timeout: .seconds(300))
        var storm = Storm()
        for line in finished.stdout.split(separator: "\n") {
            if line.hasPrefix("summary ") { storm.summary = String(line.dropFirst(8)) }
            if line.hasPrefix("error ") { storm.errors.append(String(line.dropFirst(6))) }
            if line == "done" { storm.done = finished.succeeded }
        }
        if finished.timedOut { storm.errors.append("storm.py killed at its deadline") }
        return storm
    }

    /// The module this server started: its command line names a file in this rig's folder.
    func modulePID() -> pid_t? {
        guard let binary = try? Paths.moduleBinary() else { return nil }
        let name = URL(fileURLWithPath: binary).lastPathComponent
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        for entry in entries {
            guard let pid = pid_t(entry),
                let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")
            else { continue }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if arguments.first?.hasSuffix(name) == true, arguments.contains(where: { $0.contains(dir.path) }) {
                return pid
            }
        }
        return nil
    }
}

