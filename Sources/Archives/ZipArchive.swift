internal import CZip

/// The members of a zip archive, read by libzip: a NumPy `.npz` (a Kokoro pack's voices) is a
/// zip of `.npy` arrays, stored or deflated.
public enum ZipArchive {
    /// Every file member of the archive at `path` (folders left out), each at most `limit` bytes.
    public static func members(of path: String, limit: Int = 64 << 20) -> Result<[(name: String, bytes: [UInt8])], ArchiveError> {
        var code: Int32 = 0
        guard let archive = zip_open(path, ZIP_RDONLY, &code) else {
            return .failure(ArchiveError("\(path) is not a zip archive (\(message(code: code)))"))
        }
        defer { zip_discard(archive) }
        let count = zip_get_num_entries(archive, 0)
        guard count >= 0 else { return .failure(ArchiveError("\(path): its entries cannot be read")) }
        var members: [(String, [UInt8])] = []
        for index in 0..<UInt64(count) {
            var stat = zip_stat_t()
            zip_stat_init(&stat)
            guard zip_stat_index(archive, index, 0, &stat) == 0, let name = stat.name else {
                return .failure(ArchiveError("\(path): entry \(index) cannot be read (\(archiveMessage(archive)))"))
            }
            let memberName = String(cString: name)
            guard !memberName.hasSuffix("/") else { continue }
            guard stat.valid & UInt64(ZIP_STAT_SIZE) != 0, stat.size <= UInt64(limit) else {
                return .failure(ArchiveError("\(path): \(memberName) is larger than \(limit >> 20) MB"))
            }
            guard let file = zip_fopen_index(archive, index, 0) else {
                return .failure(ArchiveError("\(path): \(memberName) cannot be opened (\(archiveMessage(archive)))"))
            }
            var bytes = [UInt8](repeating: 0, count: Int(stat.size))
            let read = bytes.withUnsafeMutableBytes { zip_fread(file, $0.baseAddress, UInt64($0.count)) }
            let closed = zip_fclose(file)
            // zip_fclose reports a CRC mismatch of what was read.
            guard read == Int64(stat.size), closed == 0 else {
                return .failure(ArchiveError("\(path): \(memberName) is corrupt (its data or checksum do not read back)"))
            }
            members.append((memberName, bytes))
        }
        return .success(members)
    }

    private static func message(code: Int32) -> String {
        var error = zip_error_t()
        zip_error_init_with_code(&error, code)
        defer { zip_error_fini(&error) }
        return zip_error_strerror(&error).map { String(cString: $0) } ?? "libzip error \(code)"
    }

    private static func archiveMessage(_ archive: OpaquePointer) -> String {
        zip_strerror(archive).map { String(cString: $0) } ?? "unknown error"
    }
}

/// Why an archive cannot be read.
public struct ArchiveError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
