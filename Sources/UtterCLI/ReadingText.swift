import Reading
import System

/// The text `utter read` reads: a file's or standard input's, Markdown made readable.
struct ReadingText {
    /// How messages name it: the file's name in quotes, or "standard input".
    let name: String
    /// What is split into sentences and read.
    let readable: String

    init(file: String) throws {
        let bytes: [UInt8]
        if file == "-" {
            guard !Terminal.isStandardInputTerminal else {
                throw UtterError("Give a file to read, or pipe text into 'utter read -'.")
            }
            name = "standard input"
            do {
                bytes = try BorrowedDescriptor(0).readToEnd()
            } catch {
                throw UtterError("Cannot read standard input: \(error).")
            }
        } else {
            name = "'\(file)'"
            do {
                bytes = try FileSystem.contents(of: file)
            } catch {
                throw UtterError("Cannot read '\(file)': \(error).")
            }
        }
        // A program or an image would be read out as noise.
        guard !bytes.contains(0) else { throw UtterError("\(name) is not UTF-8 text: it holds NUL bytes.") }
        let text = String(decoding: bytes, as: UTF8.self)
        let lowercased = file.lowercased()
        let isMarkdown = [".md", ".markdown", ".mdown", ".mkd"].contains { lowercased.hasSuffix($0) }
        readable = isMarkdown ? MarkdownText.readable(text) : text
    }
}
