import Glibc
import System

/// The whole regular file at `path`, if it holds at most `limit` bytes (a model of hundreds of
/// megabytes is read in one go: the caller holds it all anyway), with room for `spare` bytes more.
public func readFile(_ path: String, limit: Int, spare: Int = 0) -> Result<[UInt8], FileError> {
    let file: RegularFile
    switch openRegularFile(path, for: .reading) {
    case .success(let opened): file = opened
    case .failure(let error): return .failure(error)
    }
    defer { close(file.descriptor) }
    guard file.size <= limit else { return .failure(.tooLarge(limit: limit)) }
    var bytes = [UInt8]()
    bytes.reserveCapacity(file.size + spare)
    bytes.append(contentsOf: repeatElement(0, count: file.size))
    var filled = 0
    while filled < bytes.count {
        let count = bytes.withUnsafeMutableBytes { read(file.descriptor, $0.baseAddress! + filled, $0.count - filled) }
        if count < 0 && errno == EINTR { continue }
        guard count >= 0 else { return .failure(.system(Errno(errno))) }
        guard count > 0 else { break }  // shrank while being read
        filled += count
    }
    // In place: a copy would hold the file twice.
    bytes.removeLast(bytes.count - filled)
    return .success(bytes)
}
