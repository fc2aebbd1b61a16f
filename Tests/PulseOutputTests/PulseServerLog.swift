/// The bytes PulseAudio's null sink rewound for one reason, in order, from the server's debug log:
/// a "Requesting rewind due to `reason`" line followed by the sink's "Rewound N bytes".
func nullSinkRewinds(log: String, dueTo reason: String) -> [Int] {
    var rewinds: [Int] = []
    var pending = false
    for line in log.split(separator: "\n") {
        if line.contains("Requesting rewind") {
            // (A rewind for another reason, or one with nothing to rewind, is not this one.)
            pending = line.contains("due to \(reason)")
        } else if pending, line.contains("module-null-sink.c: Rewound ") {
            pending = false
            let words = line.split(separator: " ")
            let count = words.firstIndex(of: "Rewound").map { words.index(after: $0) }
            rewinds.append(count.flatMap { $0 < words.endIndex ? Int(words[$0]) : nil } ?? -1)
        }
    }
    return rewinds
}
