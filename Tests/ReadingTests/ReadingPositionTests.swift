import Reading
import Testing

@Test func `a position is stored as a line and read back`() {
    let position = ReadingPosition(sentence: 12, textHash: 0xDEAD_BEEF)
    #expect(position.record == "12 deadbeef\n")
    #expect(ReadingPosition(record: position.record) == position)
    #expect(ReadingPosition(record: "") == nil)
    #expect(ReadingPosition(record: "-1 ff") == nil)
    #expect(ReadingPosition(record: "3 xyz") == nil)
    #expect(ReadingPosition(record: "3 ff 4") == nil)
}

@Test func `the hash is FNV-1a of the UTF-8, the same in every run`() {
    #expect(ReadingPosition.hash("") == 0xcbf2_9ce4_8422_2325)
    #expect(ReadingPosition.hash("a") == 0xaf63_dc4c_8601_ec8c)
}

@Test func `reading resumes at the stored sentence only for the same text`() {
    let position = ReadingPosition(sentence: 3, text: "One. Two. Three. Four. Five.")
    #expect(position.start(for: "One. Two. Three. Four. Five.", sentenceCount: 5) == 3)
    #expect(position.start(for: "One. Two. Three. Four. Six.", sentenceCount: 5) == 0)
    #expect(position.start(for: "One. Two. Three. Four. Five.", sentenceCount: 3) == 0)
}
