import History
import Logging
import System

/// The socket `utter history` reaches the module through, served on the control thread's poll
/// loop: every call is non-blocking, so a slow or silent client never holds up speech.
///
/// One socket per module, named by its process id (`history-PID.socket`), because two
/// speech-dispatcher instances of one user (two sessions, or a test server beside the desktop's)
/// each start a module: a shared name would let the second take it from the first, or fail.
/// `utter history` asks every live socket in the folder and uses the one that spoke last.
final class HistoryChannel {
    /// The socket's path, removed again when the channel closes.
    let path: String
    private let listener: LocalSocket
    private var clients: [Client] = []
    private let logger: Logger

    /// A request or reply longer than this is not one `utter history` sends.
    static let requestLimit = 256
    /// Connections served at once; an older one is dropped for a new one beyond that.
    static let clientLimit = 8

    private final class Client {
        let socket: LocalSocket
        var input: [UInt8] = []
        var output: [UInt8] = []
        var sent = 0
        /// Its request has been answered: it closes once the answer is sent.
        var isAnswered = false
        /// The answer to whatever it asks, when it may not ask (sent after its request is read:
        /// closing with the request unread would reset the connection before the client reads why).
        var refusal: HistoryReply?
        /// Its whole answer is sent, and the end of it.
        var isShutDown = false

        init(_ socket: consuming LocalSocket) {
            self.socket = socket
        }
    }

    private init(path: String, listener: consuming LocalSocket, logger: Logger) {
        self.path = path
        self.listener = listener
        self.logger = logger
    }

    deinit {
        // The module is gone or its history off: a client must not find the socket and hang on it.
        try? FileSystem.removeFile(path)
    }

    /// The folder every module's socket is in: `$XDG_RUNTIME_DIR/utter`.
    static func folder(runtimeFolder: String) -> String {
        runtimeFolder + "/utter"
    }

    /// Opens this module's socket in `runtimeFolder`'s `utter` folder (made 0700), removing sockets
    /// left there by modules that crashed; nil, with a log line saying why, when it cannot.
    static func open(runtimeFolder: String, logger: Logger) -> HistoryChannel? {
        let folder = folder(runtimeFolder: runtimeFolder)
        do {
            try FileSystem.createDirectories(folder, mode: 0o700)
            let (owner, mode, isDirectory) = try FileSystem.ownership(of: folder)
            guard isDirectory, owner == CurrentProcess.userID else {
                logger.error(
                    "no speech history: \(folder) is not a folder of this user (uid \(CurrentProcess.userID)); remove it"
                )
                return nil
            }
            if mode != 0o700 {
                // Sockets in it would be reachable by others: the folder is the first lock.
                try FileSystem.setMode(folder, 0o700)
                logger.notice("\(folder) had mode \(String(mode, radix: 8)); set to 700")
            }
        } catch {
            logger.error("no speech history: cannot make the private folder \(folder) (\(error))")
            return nil
        }
        removeStaleSockets(in: folder, logger: logger)
        let path = folder + "/history-\(CurrentProcess.id).socket"
        do {
            let listener = try LocalSocket.listening(at: path, mode: 0o600)
            logger.info("speech history: utter history reaches this module at \(path)")
            return HistoryChannel(path: path, listener: listener, logger: logger)
        } catch {
            logger.error("no speech history: cannot listen at \(path) (\(error))")
            return nil
        }
    }

    /// Removes the sockets in `folder` no process listens on: a module that crashed left them.
    /// One that answers belongs to a live module (ours too, after a process id was reused in another
    /// namespace) and is left alone; the connect costs it an empty request.
    private static func removeStaleSockets(in folder: String, logger: Logger) {
        guard let names = try? FileSystem.entries(of: folder) else { return }
        for name in names where name.hasPrefix("history-") && name.hasSuffix(".socket") {
            let path = folder + "/" + name
            do {
                _ = try LocalSocket.connected(to: path, timeoutMilliseconds: 100)
            } catch  where error == .connectionRefused {
                try? FileSystem.removeFile(path)
                logger.info("removed \(path), left by a module that is gone")
            } catch {}
        }
    }

    /// What to poll: the listener, then every client (writable too while its answer waits).
    var pollRequests: [PollRequest] {
        [PollRequest(listener.rawValue)]
            + clients.map { PollRequest($0.socket.rawValue, waitsForWritable: $0.sent < $0.output.count) }
    }

    /// Serves what `ready` (flags in the order of ``pollRequests``) says can go on: accepts, reads a
    /// request, answers it with `answer`, writes, closes. False when the listener failed: the
    /// channel must then close, since the listener would stay readable and spin the loop.
    func serve(ready: ArraySlice<Bool>, answer: (HistoryRequest) -> HistoryReply) -> Bool {
        let flags = Array(ready)
        // Clients first: the list they were polled as, before any is accepted or dropped.
        var finished: [ObjectIdentifier] = []
        for (index, client) in clients.enumerated() where flags.indices.contains(index + 1) && flags[index + 1] {
            if !serve(client, respond: answer) { finished.append(ObjectIdentifier(client)) }
        }
        clients.removeAll { finished.contains(ObjectIdentifier($0)) }
        return flags.first == true ? acceptAll() : true
    }

    private func acceptAll() -> Bool {
        while true {
            let accepted: LocalSocket?
            do {
                accepted = try listener.accept()
            } catch {
                logger.error("history socket: accept failed (\(error)); the history socket is closed, speech goes on")
                return false
            }
            guard let socket = accepted else { return true }
            let client = Client(socket)
            // The folder's mode keeps other users out; this holds even if someone loosened it.
            do {
                let uid = try client.socket.peerUserID()
                if uid != CurrentProcess.userID {
                    logger.warning(
                        "history socket: refused a client of uid \(uid); only uid \(CurrentProcess.userID) may ask")
                    client.refusal = .refused("This module belongs to another user.")
                }
            } catch {
                logger.error("history socket: cannot tell who connected (\(error)); refused")
                client.refusal = .refused("The module cannot tell who you are.")
            }
            if clients.count >= Self.clientLimit {
                // One that has its whole answer goes first: it only waits for the client to close.
                if let done = clients.firstIndex(where: { $0.isShutDown }) {
                    clients.remove(at: done)
                } else {
                    logger.warning("history socket: over \(Self.clientLimit) connections; dropping the oldest")
                    clients.removeFirst()
                }
            }
            clients.append(client)
        }
    }

    /// Reads, answers and writes what it can for `client`; false when it is done with.
    private func serve(_ client: Client, respond: (HistoryRequest) -> HistoryReply) -> Bool {
        var buffer = [UInt8](repeating: 0, count: Self.requestLimit)
        let result = buffer.withUnsafeMutableBytes { client.socket.receive(into: $0) }
        switch result {
        // At its end, a client is gone, answered or not (a readable end of file, kept, would spin the loop).
        case .success(0): return false
        // After the request, whatever else a client sends is read only to be dropped, for the same reason.
        case .success(let count): if !client.isAnswered { client.input += buffer[0..<count] }
        case .failure(let error) where error.isTransient: break
        case .failure(let error):
            logger.info("history socket: a client's read failed (\(error))")
            return false
        }
        if !client.isAnswered {
            if let newline = client.input.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: client.input[..<newline], as: UTF8.self)
                if let refusal = client.refusal {
                    answer(client, refusal)
                } else if let request = HistoryRequest(line: line) {
                    answer(client, respond(request))
                } else {
                    logger.warning("history socket: unknown request \(String(line.prefix(80)).debugDescription)")
                    answer(client, .refused("Unknown request: this utter and this module differ in version?"))
                }
            } else if client.input.count >= Self.requestLimit {
                logger.warning("history socket: a request over \(Self.requestLimit) bytes; refused")
                answer(client, .refused("The request is too long."))
            }
        }
        return flush(client)
    }

    private func answer(_ client: Client, _ reply: HistoryReply) {
        client.output = Array(reply.encoded.utf8)
        client.sent = 0
        client.isAnswered = true
    }

    /// Writes what the socket takes of `client`'s answer; false when it cannot be.
    private func flush(_ client: Client) -> Bool {
        while client.sent < client.output.count {
            let result = client.output[client.sent...].withUnsafeBytes { client.socket.send($0) }
            switch result {
            case .success(let count): client.sent += count
            case .failure(let error) where error.isTransient: return true
            case .failure(let error):
                logger.info("history socket: a client left before its answer was sent (\(error))")
                return false
            }
        }
        if client.isAnswered && !client.isShutDown {
            // The client reads to the end of the answer and closes; the connection is dropped at
            // its end of file. Closing now, with a request it sent not all read, would reset the
            // connection and lose the answer.
            client.socket.shutdownWriting()
            client.isShutDown = true
        }
        return true
    }
}
