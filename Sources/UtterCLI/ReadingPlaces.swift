import Reading
import System

/// Where `utter read` stopped in a file: one small file per text file under the user's state
/// folder, named by a hash of the file's full path.
struct ReadingPlaces {
    let record: String

    init(file: String, folders: UserFolders = UserFolders()) {
        let path = FileSystem.resolvedPath(file) ?? file
        record = folders.state + "/read/" + String(ReadingPosition.hash(path), radix: 16)
    }

    /// The stored place, if any (an unreadable or damaged record counts as none).
    func position() -> ReadingPosition? {
        (try? FileSystem.contents(of: record)).flatMap { ReadingPosition(record: String(decoding: $0, as: UTF8.self)) }
    }

    func save(_ position: ReadingPosition) throws(Errno) {
        try FileSystem.createDirectories(FileSystem.parent(of: record), mode: 0o700)
        try FileSystem.write(Array(position.record.utf8), to: record, mode: 0o600)
    }

    func clear() {
        try? FileSystem.removeFile(record)
    }
}
