internal import CSpeechd
import Glibc
import Synchronization

/// Why the user's speech-dispatcher could not be reached.
public struct SpeechDispatcherError: Error, CustomStringConvertible, Equatable, Sendable {
    public var description: String
}

/// A connection to the user's speech-dispatcher through libspeechd, as any SSIP client makes one.
public final class SpeechDispatcherConnection {
    private let connection: UnsafeMutablePointer<SPDConnection>

    /// The socket libspeechd connects to for this user (`$SPEECHD_ADDRESS` or
    /// `$XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock`), when it is a Unix socket.
    public static var defaultSocketPath: String? {
        var error: UnsafeMutablePointer<CChar>? = nil
        defer { free(error) }
        guard let address = spd_get_default_address(&error) else { return nil }
        defer { SPDConnectionAddress__free(address) }
        guard address.pointee.method == SPD_METHOD_UNIX_SOCKET, let name = address.pointee.unix_socket_name else {
            return nil
        }
        return String(cString: name)
    }

    /// Connects to the running server; with `startingServer`, starts one first if none runs (as
    /// clients do).
    public init(clientName: String, startingServer: Bool) throws(SpeechDispatcherError) {
        // Asked here rather than by a failing spd_open2, which leaks a string on that path.
        if !startingServer, let socket = Self.defaultSocketPath, access(socket, F_OK) != 0 {
            throw SpeechDispatcherError(description: "no socket at \(socket)")
        }
        var error: UnsafeMutablePointer<CChar>? = nil
        defer { free(error) }
        // A server started here inherits this thread's signal mask, and a Swift concurrency thread
        // blocks most signals: such a server would never see SIGTERM. Start it with none blocked.
        var none = sigset_t()
        var previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        let opened = spd_open2(clientName, "main", nil, SPD_MODE_THREADED, nil, startingServer ? 1 : 0, &error)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        guard let opened else {
            let reason = error.map { String(cString: $0) } ?? "no reason given"
            throw SpeechDispatcherError(description: reason.trimmingTrailingNewlines)
        }
        connection = opened
        // Called on libspeechd's reader thread, which passes no context: the ends go to a table
        // shared by the process, keyed by message ID.
        connection.pointee.callback_end = { message, _, _ in Ended.messages.withLock { _ = $0.insert(message) } }
        connection.pointee.callback_cancel = { message, _, _ in Ended.messages.withLock { _ = $0.insert(message) } }
        spd_set_notification_on(connection, SPD_END)
        spd_set_notification_on(connection, SPD_CANCEL)
    }

    deinit {
        // Its reader thread sees the end of the stream and ends by itself, rather than being
        // cancelled by spd_close in the middle of a read (which ThreadSanitizer reports).
        shutdown(connection.pointee.socket, Int32(SHUT_RD))
        usleep(20_000)
        spd_close(connection)
    }

    /// The output modules the server runs, or nil when it did not answer.
    public func outputModules() -> [String]? {
        guard let list = spd_list_modules(connection) else { return nil }
        defer { free_spd_modules(list) }
        var modules: [String] = []
        var index = 0
        while let name = list[index] {
            modules.append(String(cString: name))
            index += 1
        }
        return modules
    }

    /// Speaks `text` with output module `module` and waits until it has been spoken (or
    /// cancelled); false when the server refused it or `timeout` seconds passed first.
    public func speak(_ text: String, module: String, timeout: Double) -> Bool {
        guard spd_set_output_module(connection, module) == 0 else { return false }
        let message = spd_say(connection, SPD_TEXT, text)
        guard message > 0 else { return false }
        let id = Int(message)
        var waited = 0.0
        while waited < timeout {
            if Ended.messages.withLock({ $0.remove(id) != nil }) { return true }
            usleep(20_000)
            waited += 0.02
        }
        return false
    }
}

/// Messages that ended or were cancelled, for ``SpeechDispatcherConnection/speak(_:module:timeout:)``.
private enum Ended {
    static let messages = Mutex<Set<Int>>([])
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
