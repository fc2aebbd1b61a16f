import Glibc
public import System

/// Why a file could not be opened or read.
public enum FileError: Error, CustomStringConvertible, Equatable {
    case system(Errno)
    /// A folder, FIFO or device: reading or writing one could fail, block or never end.
    case notRegularFile
    case tooLarge(limit: Int)

    public var description: String {
        switch self {
        case .system(let error): "\(error)"
        case .notRegularFile: "not a regular file"
        case .tooLarge(let limit): "larger than \(limit >> 20) MiB"
        }
    }

    /// Whether the file is simply not there (which for an optional file is no problem).
    public var isMissing: Bool {
        if case .system(let error) = self { return error.code == ENOENT || error.code == ENOTDIR }
        return false
    }
}

/// An open regular file: its descriptor (close-on-exec, the caller closes it) and its size.
public struct RegularFile {
    public let descriptor: Int32
    public let size: Int
}

/// What a regular file is opened for.
public enum FileAccess: Sendable {
    case reading
    /// Writing from the start: created (mode 0644) if missing, emptied if not.
    case writingFromStart

    var flags: Int32 {
        switch self {
        case .reading: O_RDONLY
        case .writingFromStart: O_WRONLY | O_CREAT | O_TRUNC
        }
    }
}

/// Opens `path` for `access`, and keeps it only if it is a regular file. The open never blocks: a
/// FIFO with nobody at the other end is refused at once instead of holding the calling thread, and
/// so is any other FIFO, folder or device (none of which `O_TRUNC` changes).
public func openRegularFile(_ path: String, for access: FileAccess) -> Result<RegularFile, FileError> {
    let descriptor = open(path, access.flags | O_CLOEXEC | O_NONBLOCK, 0o644)
    guard descriptor >= 0 else { return .failure(.system(Errno(errno))) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
        let error = Errno(errno)
        close(descriptor)
        return .failure(.system(error))
    }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
        close(descriptor)
        return .failure(.notRegularFile)
    }
    return .success(RegularFile(descriptor: descriptor, size: Int(status.st_size)))
}

/// The whole regular file at `path` as text (invalid UTF-8 replaced), if it holds at most
/// `limit` bytes: none of the module's text files comes near 4 MiB. What a file being written
/// to (a log) gains while it is read is left for the next reading.
public func readTextFile(_ path: String, limit: Int = 4 << 20) -> Result<String, FileError> {
    readFile(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
}

/// What tells one version of a file from the next: its size and modification time.
public struct FileStamp: Equatable, Sendable {
    public var size: Int
    public var modifiedSeconds: Int
    public var modifiedNanoseconds: Int
}

/// The stamp of whatever is at `path` (following links), or nil when nothing is there.
public func fileStamp(_ path: String) -> FileStamp? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return FileStamp(
        size: Int(status.st_size), modifiedSeconds: Int(status.st_mtim.tv_sec),
        modifiedNanoseconds: Int(status.st_mtim.tv_nsec))
}

/// Whether the calling process may read `path` (a missing file may not).
public func isReadable(_ path: String) -> Bool {
    access(path, R_OK) == 0
}
