import Glibc

/// VmRSS of process `pid` in KiB, from /proc (0 when unreadable).
public func residentKilobytes(_ pid: Int32) -> Int {
    statusKilobytes(pid, "VmRSS")
}

/// VmHWM of process `pid` in KiB: the most it was ever resident (0 when unreadable).
public func peakResidentKilobytes(_ pid: Int32) -> Int {
    statusKilobytes(pid, "VmHWM")
}

private func statusKilobytes(_ pid: Int32, _ field: String) -> Int {
    let status = readText("/proc/\(pid)/status")
    let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

/// Random numbers that are the same on every run (xorshift64), for storms and fuzz-like tests.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed | 1 }

    public mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}

/// The whole file at `path`, or nil when it cannot be read.
public func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return bytes }
        bytes += buffer[0..<count]
    }
}

/// The whole file at `path` as text (invalid UTF-8 replaced); empty when it cannot be read.
public func readText(_ path: String) -> String {
    String(decoding: readFile(path) ?? [], as: UTF8.self)
}

/// Writes `text` to `path`, replacing it.
public func writeFile(_ path: String, _ text: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    precondition(fd >= 0, "cannot write \(path)")
    var text = text
    text.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
    close(fd)
}

/// 16-bit little-endian samples from `bytes` (raw audio an ALSA `file` device captured), starting
/// at byte `start`.
public func littleEndianSamples(_ bytes: [UInt8], from start: Int = 0) -> [Int16] {
    stride(from: start, to: bytes.count - 1, by: 2).map {
        Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
    }
}
