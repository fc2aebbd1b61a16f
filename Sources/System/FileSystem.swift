import Glibc

/// Files and folders as a user's set-up tools handle them (not the module's reads, which go
/// through RegularFiles).
public enum FileSystem {
    /// Whether anything is at `path` (a dangling link counts).
    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// What is at `path` (following links), or why that cannot be told.
    public static func kind(of path: String) -> Result<FileKind, Errno> {
        var status = stat()
        guard stat(path, &status) == 0 else { return .failure(.current) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .success(.regularFile)
        case S_IFDIR: return .success(.directory)
        default: return .success(.other)
        }
    }

    /// Whether `path` is a folder (following links).
    public static func isDirectory(_ path: String) -> Bool {
        kind(of: path) == .success(.directory)
    }

    /// Whether `path` is a regular file (following links).
    public static func isRegularFile(_ path: String) -> Bool {
        kind(of: path) == .success(.regularFile)
    }

    /// The status change time and size of what is at `path` (following links), or nil when
    /// nothing is: a new, edited, replaced or re-permissioned file changes it.
    public static func changeStamp(of path: String) -> ChangeStamp? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return ChangeStamp(
            seconds: status.st_ctim.tv_sec, nanoseconds: status.st_ctim.tv_nsec, size: Int(status.st_size))
    }

    /// Whether `path` is a regular file this process may run.
    public static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }

    /// `path` with links and `.`/`..` resolved, or nil when it does not exist.
    public static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The names in folder `path`, sorted, without `.` and `..`.
    public static func entries(of path: String) throws(Errno) -> [String] {
        guard let folder = opendir(path) else { throw .current }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The folders in folder `path`, sorted.
    public static func subdirectories(of path: String) throws(Errno) -> [String] {
        try entries(of: path).filter { isDirectory(path + "/" + $0) }
    }

    /// Creates `path` and the folders above it that are missing; returns the ones it created,
    /// outermost first, so that they can be removed again.
    @discardableResult
    public static func createDirectories(_ path: String, mode: UInt32 = 0o755) throws(Errno) -> [String] {
        var missing: [String] = []
        var current = path
        while !current.isEmpty && current != "/" && !exists(current) {
            missing.append(current)
            current = parent(of: current)
        }
        for folder in missing.reversed() where mkdir(folder, mode) != 0 && errno != EEXIST {
            throw .current
        }
        return missing.reversed()
    }

    /// The folder `path` is in.
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Removes the file or link at `path`.
    public static func removeFile(_ path: String) throws(Errno) {
        guard unlink(path) == 0 else { throw .current }
    }

    /// Removes folder `path` if it is empty; false when it is not (or is gone).
    @discardableResult
    public static func removeEmptyDirectory(_ path: String) -> Bool {
        rmdir(path) == 0
    }

    /// The whole file at `path`.
    public static func contents(of path: String) throws(Errno) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .current }
        let file = FileDescriptor(taking: fd)
        return try file.borrowed.readToEnd()
    }

    /// Writes `bytes` to `path` with `mode`, replacing what was there in one step: the data goes
    /// to a temporary file beside it first, so a reader never sees half a file.
    public static func write(_ bytes: [UInt8], to path: String, mode: UInt32 = 0o644) throws(Errno) {
        let temporary = "\(path).utter-new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .current }
        do throws(Errno) {
            let file = FileDescriptor(taking: fd)
            if let error = bytes.withUnsafeBytes({ file.borrowed.writeAll($0) }) { throw error }
            guard fchmod(file.rawValue, mode) == 0, fsync(file.rawValue) == 0 else { throw .current }
            file.close()
            guard rename(temporary, path) == 0 else { throw .current }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Copies the file at `source` to `destination` (replacing it in one step) with `mode`.
    public static func copy(_ source: String, to destination: String, mode: UInt32) throws(Errno) {
        try write(try contents(of: source), to: destination, mode: mode)
    }
}

/// What a path names.
public enum FileKind: Equatable, Sendable {
    case regularFile
    case directory
    case other
}

/// When a file's status last changed, and its size.
public struct ChangeStamp: Hashable, Sendable {
    public var seconds: Int
    public var nanoseconds: Int
    public var size: Int
}
