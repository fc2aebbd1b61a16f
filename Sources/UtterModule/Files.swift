import Glibc

/// An `errno` value that describes itself as `strerror` does.
struct Errno: Error, CustomStringConvertible {
    var code: Int32
    init(_ code: Int32) { self.code = code }
    var description: String { String(cString: strerror(code)) }
}

/// Why a file could not be read or written.
enum FileError: Error, CustomStringConvertible {
    case system(Errno)
    /// A folder, FIFO or device: reading one would fail, block the module or never end.
    case notRegularFile
    case tooLarge(limit: Int)

    var description: String {
        switch self {
        case .system(let error): "\(error)"
        case .notRegularFile: "not a regular file"
        case .tooLarge(let limit): "larger than \(limit >> 20) MiB"
        }
    }

    /// Whether the file is simply not there (which for an optional file is no problem).
    var isMissing: Bool {
        if case .system(let error) = self { return error.code == ENOENT || error.code == ENOTDIR }
        return false
    }
}

/// The whole regular file at `path` as text (invalid UTF-8 replaced), if it holds at most
/// `limit` bytes: none of the module's text files comes near 4 MiB.
func readTextFile(_ path: String, limit: Int = 4 << 20) -> Result<String, FileError> {
    // Non-blocking, so that opening a FIFO nobody writes to returns at once to be refused.
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return .failure(.system(Errno(errno))) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return .failure(.system(Errno(errno))) }
    guard (info.st_mode & S_IFMT) == S_IFREG else { return .failure(.notRegularFile) }
    guard info.st_size <= limit else { return .failure(.tooLarge(limit: limit)) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(info.st_size))
    var chunk = [UInt8](repeating: 0, count: 16384)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count >= 0 else { return .failure(.system(Errno(errno))) }
        guard count > 0 else { return .success(String(decoding: bytes, as: UTF8.self)) }
        bytes.append(contentsOf: chunk[0..<count])
        // The file grew while being read.
        guard bytes.count <= limit else { return .failure(.tooLarge(limit: limit)) }
    }
}
