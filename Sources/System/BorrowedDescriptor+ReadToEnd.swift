import Glibc

extension BorrowedDescriptor {
    /// Everything left to read, up to the end of file (a pipe's: its writer closed it).
    public func readToEnd() throws(Errno) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            switch chunk.withUnsafeMutableBytes({ read(into: $0) }) {
            case .success(0): return bytes
            case .success(let count): bytes.append(contentsOf: chunk[0..<count])
            case .failure(let error) where error.code == EINTR: continue
            case .failure(let error): throw error
            }
        }
    }
}
