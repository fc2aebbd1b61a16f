import Glibc

extension FileSystem {
    /// Moves what is at `source` to `destination` in one step (same file system only); an empty
    /// folder or a file at `destination` is replaced.
    public static func move(_ source: String, to destination: String) throws(Errno) {
        guard rename(source, destination) == 0 else { throw .current }
    }

    /// Makes a new folder, private to the user, named `prefix` and six random characters; its path.
    public static func makeTemporaryDirectory(prefix: String) throws(Errno) -> String {
        var template = Array("\(prefix)XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw .current }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes `path` and, when it is a folder, everything in it; links are removed, not followed.
    public static func removeTree(_ path: String) throws(Errno) {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw .current }
        if status.st_mode & S_IFMT == S_IFDIR {
            for name in try entries(of: path) { try removeTree(path + "/" + name) }
            guard rmdir(path) == 0 else { throw .current }
        } else {
            try removeFile(path)
        }
    }
}

extension FileSystem {
    /// Sets the permissions of `path` (following links).
    public static func setMode(_ path: String, _ mode: UInt32) throws(Errno) {
        guard chmod(path, mode) == 0 else { throw .current }
    }

    /// The regular files below folder `path`, as paths relative to it, sorted; hidden names and
    /// links to folders are skipped.
    public static func filesBelow(_ path: String) throws(Errno) -> [String] {
        var files: [String] = []
        for name in try entries(of: path) where !name.hasPrefix(".") {
            var status = stat()
            guard lstat(path + "/" + name, &status) == 0 else { throw .current }
            if status.st_mode & S_IFMT == S_IFDIR {
                files += try filesBelow(path + "/" + name).map { name + "/" + $0 }
            } else if isRegularFile(path + "/" + name) {
                files.append(name)
            }
        }
        return files
    }
}
