import History
import Testing

@Test func `entries are numbered from the newest`() {
    var history = SpeechHistory<String>(capacity: 5)
    #expect(history.isEmpty)
    #expect(history[newest: 1] == nil)
    for word in ["one", "two", "three"] { history.append(word) }
    #expect(history.count == 3)
    #expect(history.newestFirst == ["three", "two", "one"])
    #expect(history[newest: 1] == "three")
    #expect(history[newest: 3] == "one")
    #expect(history[newest: 0] == nil)
    #expect(history[newest: 4] == nil)
    #expect(history[newest: -1] == nil)
}

@Test(arguments: [1, 2, 3, 7, 50])
func `the history keeps only the last capacity entries, in order`(capacity: Int) {
    var history = SpeechHistory<Int>(capacity: capacity)
    for total in 1...(capacity * 3 + 1) {
        history.append(total)
        let kept = min(total, capacity)
        #expect(history.count == kept)
        #expect(history.newestFirst == Array((total - kept + 1)...total).reversed())
    }
}

@Test func `a history of capacity 0 keeps nothing`() {
    var history = SpeechHistory<String>(capacity: 0)
    history.append("said")
    #expect(history.isEmpty)
    #expect(history.newestFirst == [])
    #expect(SpeechHistory<String>(capacity: -3).capacity == 0)
}

@Test func `removeAll empties the history and it fills again in order`() {
    var history = SpeechHistory<Int>(capacity: 2)
    for value in 1...5 { history.append(value) }
    history.removeAll()
    #expect(history.isEmpty)
    history.append(9)
    history.append(10)
    history.append(11)
    #expect(history.newestFirst == [11, 10])
}

@Test func `requests are read from their line`() {
    #expect(HistoryRequest(line: "LIST") == .list)
    #expect(HistoryRequest(line: "REPLAY 3") == .replay(3))
    #expect(HistoryRequest(line: "REPLAY -2") == .replay(-2))
    for bad in ["", "LIST 1", "REPLAY", "REPLAY x", "REPLAY 1 2", "list", "SPEAK hello"] {
        #expect(HistoryRequest(line: bad) == nil)
    }
    #expect(HistoryRequest.list.encoded == "LIST\n")
    #expect(HistoryRequest.replay(12).encoded == "REPLAY 12\n")
}

@Test func `replies are written byte for byte and read back whole`() {
    let entries = [
        HistoryEntry(
            text: "tab\there, line\nbreak, back\\slash \\t", kind: .speak, voice: "English (America)",
            language: "en-US", time: 1_764_115_200_123),
        HistoryEntry(text: "a", kind: .character, voice: "German", language: "de", time: 7),
        HistoryEntry(text: "control_x", kind: .key, voice: "v", language: "en", time: 8),
        HistoryEntry(text: "bell", kind: .soundIcon, voice: "v", language: "en", time: 9),
    ]
    let encoded = HistoryReply.entries(entries).encoded
    #expect(
        encoded == """
            OK 4
            1764115200123\tspeak\tEnglish (America)\ten-US\ttab\\there, line\\nbreak, back\\\\slash \\\\t
            7\tchar\tGerman\tde\ta
            8\tkey\tv\ten\tcontrol_x
            9\tsound-icon\tv\ten\tbell

            """)
    #expect(HistoryReply(encoded) == .entries(entries))
    #expect(HistoryReply.entries([]).encoded == "OK 0\n")
    #expect(HistoryReply("OK 0\n") == .entries([]))
    #expect(HistoryReply.refused("no entry 5:\nonly 2").encoded == "ERR no entry 5:\\nonly 2\n")
    #expect(HistoryReply("ERR no entry 5:\\nonly 2\n") == .refused("no entry 5:\nonly 2"))
}

@Test func `malformed replies are nil`() {
    for bad in [
        "", "OK", "OK 1\n", "OK 1", "OK x\n", "ERR\n", "ERR a\nb\n", "OK 1\n1\tspeak\tv\ten\n",
        "OK 1\nx\tspeak\tv\ten\tt\n", "OK 1\n1\tshout\tv\ten\tt\n", "HELLO\n",
    ] {
        #expect(HistoryReply(bad) == nil, "\(bad.debugDescription)")
    }
}
