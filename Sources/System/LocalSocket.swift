internal import CUtterShims
import Glibc

/// A UNIX stream socket with a path in the file system: a listening one, an accepted connection,
/// or a client's. Closed once, when it goes away.
public struct LocalSocket: ~Copyable, Sendable {
    private let descriptor: FileDescriptor

    private init(taking fd: Int32) {
        descriptor = FileDescriptor(taking: fd)
    }

    /// The descriptor, to poll; valid as long as this value lives.
    public var rawValue: Int32 { descriptor.rawValue }

    /// A non-blocking socket listening at `path` (which must not exist), given `mode` (`0o600`).
    ///
    /// The mode is set on the path after binding: the caller's folder must keep others out
    /// meanwhile (bind follows the umask, which is the whole process's).
    public static func listening(at path: String, mode: UInt32) throws(Errno) -> LocalSocket {
        let fd = CUtterShims_localSocket(1)
        guard fd >= 0 else { throw .current }
        let socket = LocalSocket(taking: fd)
        guard CUtterShims_listenLocal(fd, path, 8) == 0 else { throw .current }
        guard chmod(path, mode) == 0 else {
            let error = Errno.current
            unlink(path)
            throw error
        }
        return socket
    }

    /// A blocking connection to the socket at `path`, whose reads give up after `timeoutMilliseconds`.
    public static func connected(to path: String, timeoutMilliseconds: Int32) throws(Errno) -> LocalSocket {
        let fd = CUtterShims_localSocket(0)
        guard fd >= 0 else { throw .current }
        let socket = LocalSocket(taking: fd)
        guard CUtterShims_connectLocal(fd, path) == 0 else { throw .current }
        guard CUtterShims_setReceiveTimeout(fd, timeoutMilliseconds) == 0 else { throw .current }
        return socket
    }

    /// The next pending connection (non-blocking), or nil when there is none now.
    public func accept() throws(Errno) -> LocalSocket? {
        let fd = CUtterShims_acceptLocal(descriptor.rawValue)
        if fd >= 0 { return LocalSocket(taking: fd) }
        let error = Errno.current
        // A client that gave up before being accepted is no fault of the listener.
        if error.isTransient || error.code == ECONNABORTED { return nil }
        throw error
    }

    /// The user id of the process at the other end, as the kernel recorded it when it connected.
    public func peerUserID() throws(Errno) -> UInt32 {
        var uid: UInt32 = 0
        guard CUtterShims_peerUserID(descriptor.rawValue, &uid) == 0 else { throw .current }
        return uid
    }

    /// Reads at most `buffer.count` bytes: the count (0 at end), or why not (EAGAIN: nothing now).
    public func receive(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        descriptor.borrowed.read(into: buffer)
    }

    /// Sends what it can of `bytes` without blocking or raising SIGPIPE: the count sent, or why not.
    public func send(_ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        let sent = Glibc.send(descriptor.rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        return sent >= 0 ? .success(sent) : .failure(.current)
    }

    /// Ends what this side sends (the peer reads to its end), while what the peer sends can still be read.
    public func shutdownWriting() {
        Glibc.shutdown(descriptor.rawValue, Int32(SHUT_WR))
    }

    /// Sends all of `bytes` on a blocking socket, or the error that stopped it.
    public func sendAll(_ bytes: UnsafeRawBufferPointer) -> Errno? {
        var offset = 0
        while offset < bytes.count {
            let sent = Glibc.send(
                descriptor.rawValue, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if sent < 0 {
                if errno == EINTR { continue }
                return .current
            }
            offset += sent
        }
        return nil
    }

    /// Reads until the other end closes (or a read fails or times out, which is the error).
    public func receiveAll(limit: Int) -> Result<[UInt8], Errno> {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let result = buffer.withUnsafeMutableBytes { descriptor.borrowed.read(into: $0) }
            switch result {
            case .success(0): return .success(bytes)
            case .success(let count): bytes += buffer[0..<count]
            case .failure(let error) where error.code == EINTR: continue
            case .failure(let error): return .failure(error)
            }
        }
        return .success(bytes)
    }
}

extension CurrentProcess {
    /// The process id.
    public static var id: Int32 { getpid() }
}

extension FileSystem {
    /// The owner and permission bits of `path` itself (a link is not followed), and whether it is a
    /// folder, or why not.
    public static func ownership(of path: String) throws(Errno) -> (owner: UInt32, mode: UInt32, isDirectory: Bool) {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw .current }
        return (status.st_uid, status.st_mode & 0o7777, status.st_mode & S_IFMT == S_IFDIR)
    }
}
