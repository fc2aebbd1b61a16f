import Testing

@testable import System

/// The bytes a terminal sends for keys, as `KeyReader` turns them into keys.
@Suite struct KeyDecoderTests {
    /// The keys `bytes` make when they arrive together in one read.
    private func keys(_ bytes: [UInt8]) -> [Key] {
        var decoder = KeyDecoder()
        return bytes.flatMap { decoder.take($0) } + decoder.flush()
    }

    @Test func `characters, space and digits are characters; Ctrl-C and Ctrl-D interrupt`() {
        #expect(keys(Array("q 7".utf8)) == [.character("q"), .character(" "), .character("7")])
        #expect(keys([0x03]) == [.interrupt])
        #expect(keys([0x04]) == [.interrupt])
    }

    @Test func `UTF-8 characters come whole, however their bytes are split`() {
        #expect(keys(Array("é日😀".utf8)) == [.character("é"), .character("日"), .character("😀")])
        var decoder = KeyDecoder()
        let bytes = Array("日".utf8)
        #expect(decoder.take(bytes[0]) == [])
        #expect(decoder.take(bytes[1]) == [])
        #expect(decoder.take(bytes[2]) == [.character("日")])
    }

    @Test func `arrow keys in both cursor modes, and a lone Escape`() {
        #expect(keys([0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42, 0x1B, 0x4F, 0x43, 0x1B, 0x4F, 0x44]) == [.up, .down, .right, .left])
        #expect(keys([0x1B]) == [.escape])
        #expect(keys([0x1B, UInt8(ascii: "q")]) == [.escape, .character("q")])
        // An escape sequence this reader does not know (F1: ESC O P) is dropped whole.
        #expect(keys([0x1B, 0x4F, 0x50, UInt8(ascii: "n")]) == [.character("n")])
    }
}
