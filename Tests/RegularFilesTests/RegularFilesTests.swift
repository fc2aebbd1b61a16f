import Glibc
import RegularFiles
import System
import TestSupport
import Testing

/// Writes `bytes` to `path`, replacing it.
private func writeBytes(_ bytes: [UInt8], to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    precondition(fd >= 0, "cannot write \(path)")
    defer { close(fd) }
    precondition(bytes.withUnsafeBytes { BorrowedDescriptor(fd).writeAll($0) } == nil, "cannot write \(path)")
}

/// The failure of `result`, or nil when it succeeded.
private func failure<Value>(_ result: Result<Value, FileError>) -> FileError? {
    if case .failure(let error) = result { return error }
    return nil
}

/// Whole files read with a limit, and what is refused: anything but a regular file, a file too large.
@Suite struct RegularFilesTests {
    @Test func `a file is read whole, as bytes and as text with invalid UTF-8 replaced`() throws {
        let folder = TemporaryFolder()
        let path = folder.file("notes")
        let bytes = Array("Grüße, 日本\n".utf8) + [0xFF] + Array("end".utf8)
        writeBytes(bytes, to: path)
        #expect(try readFile(path, limit: 1 << 20).get() == bytes)
        #expect(try readTextFile(path).get() == "Grüße, 日本\n\u{FFFD}end")
        writeBytes([], to: path)
        #expect(try readFile(path, limit: 0).get() == [])
        #expect(try readTextFile(path).get() == "")
    }

    @Test func `a missing file is a system error that says so, and counts as missing`() {
        let folder = TemporaryFolder()
        let missing = failure(readFile(folder.file("missing"), limit: 1 << 20))
        #expect(missing == .system(Errno(ENOENT)))
        #expect(missing?.description == "No such file or directory")
        #expect(missing?.isMissing == true)
        // A path through a file, as if it were a folder, is missing too.
        writeFile(folder.file("file"), "x")
        #expect(failure(readTextFile(folder.file("file/inside"))) == .system(Errno(ENOTDIR)))
        #expect(failure(readTextFile(folder.file("file/inside")))?.isMissing == true)
    }

    @Test func `a folder, a FIFO and a device are refused at once as not regular files`() throws {
        let folder = TemporaryFolder()
        let fifo = folder.file("fifo")
        try #require(mkfifo(fifo, 0o644) == 0)
        // Nobody writes to the FIFO: an open that waited for a writer would never return.
        for path in [folder.path, fifo, "/dev/null", "/dev/zero"] {
            #expect(failure(readFile(path, limit: 1 << 20)) == .notRegularFile, "\(path)")
            #expect(failure(readTextFile(path)) == .notRegularFile, "\(path)")
            #expect(failure(readFile(path, limit: 1 << 20))?.isMissing == false)
        }
        #expect(FileError.notRegularFile.description == "not a regular file")
        // Opened for writing, a folder is refused by the system, a FIFO without a reader too.
        #expect(failure(openRegularFile(folder.path, for: .writingFromStart)) == .system(Errno(EISDIR)))
        #expect(failure(openRegularFile(fifo, for: .writingFromStart)) == .system(Errno(ENXIO)))
    }

    @Test func `a large file is read whole with room to spare, and one over the limit is refused`() throws {
        let folder = TemporaryFolder()
        let path = folder.file("model")
        // 6 MiB, past the text reader's limit, with no two neighbouring kilobytes alike, so that a
        // stretch read twice or skipped shows.
        let size = 6 << 20
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 10) }
        writeBytes(bytes, to: path)
        let read = try readFile(path, limit: size, spare: 64).get()
        #expect(read.count == size && read == bytes)
        #expect(read.capacity >= size + 64)
        #expect(failure(readFile(path, limit: size - 1)) == .tooLarge(limit: size - 1))
        #expect(FileError.tooLarge(limit: size - 1).description == "larger than 5 MiB")
        // Text is read in 16 KiB chunks up to its 4 MiB default limit; a character across two
        // chunks comes whole.
        #expect(failure(readTextFile(path)) == .tooLarge(limit: 4 << 20))
        let text = String(repeating: "日本語のテキスト。", count: 20_000)
        writeFile(path, text)
        #expect(try readTextFile(path).get() == text)
    }

    @Test func `a file opened for writing from the start is created or emptied, and its stamp changes`() throws {
        let folder = TemporaryFolder()
        let path = folder.file("out")
        #expect(fileStamp(path) == nil && !isReadable(path))
        let created = try openRegularFile(path, for: .writingFromStart).get()
        #expect(created.size == 0)
        #expect(write(created.descriptor, "hello", 5) == 5)
        close(created.descriptor)
        #expect(isReadable(path))
        let stamp = try #require(fileStamp(path))
        #expect(stamp.size == 5)
        let emptied = try openRegularFile(path, for: .writingFromStart).get()
        close(emptied.descriptor)
        #expect(try readTextFile(path).get() == "")
        #expect(fileStamp(path)?.size == 0 && fileStamp(path) != stamp)
        let reading = try openRegularFile(path, for: .reading).get()
        #expect(write(reading.descriptor, "x", 1) == -1, "opened for reading only")
        close(reading.descriptor)
    }
}
