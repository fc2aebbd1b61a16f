internal import CSpeechd
import Glibc
import System

/// Why the user's speech-dispatcher could not be reached.
public struct SpeechDispatcherError: Error, CustomStringConvertible, Equatable, Sendable {
    public var description: String
}

/// A connection to the user's speech-dispatcher through libspeechd, as any SSIP client makes one.
/// Usable from any thread: in its threaded mode libspeechd sends each request under its own lock.
public final class SpeechDispatcherConnection: @unchecked Sendable {
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
    /// clients do). `socket`: the server's Unix socket, instead of the one libspeechd finds for
    /// this user (a process that talks to several servers cannot change its environment safely).
    public init(clientName: String, startingServer: Bool, socket: String? = nil) throws(SpeechDispatcherError) {
        // Asked here rather than by a failing spd_open2, which leaks a string on that path.
        if !startingServer, let socket = socket ?? Self.defaultSocketPath, access(socket, F_OK) != 0 {
            throw SpeechDispatcherError(description: "no socket at \(socket)")
        }
        // libspeechd frees what it is given with SPDConnectionAddress__free: malloc'd throughout.
        let address = socket.map { path -> UnsafeMutablePointer<SPDConnectionAddress> in
            let address = UnsafeMutablePointer<SPDConnectionAddress>(
                OpaquePointer(calloc(1, MemoryLayout<SPDConnectionAddress>.size)!))
            address.pointee.method = SPD_METHOD_UNIX_SOCKET
            address.pointee.unix_socket_name = strdup(path)
            return address
        }
        defer { if let address { SPDConnectionAddress__free(address) } }
        var error: UnsafeMutablePointer<CChar>? = nil
        defer { free(error) }
        // A server started here inherits this thread's signal mask, and a Swift concurrency thread
        // blocks most signals: such a server would never see SIGTERM. Start it with none blocked.
        var none = sigset_t()
        var previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        let opened = spd_open2(clientName, "main", nil, SPD_MODE_THREADED, address, startingServer ? 1 : 0, &error)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        guard let opened else {
            let reason = error.map { String(cString: $0) } ?? "no reason given"
            throw SpeechDispatcherError(description: reason.trimmingTrailingNewlines)
        }
        connection = opened
        // Called on libspeechd's reader thread, which passes no context: the events go to a table
        // shared by the process, keyed by message ID (which the server makes unique).
        connection.pointee.callback_begin = { message, _, _ in Messages.table.withLock { $0.post(.began, to: message) } }
        connection.pointee.callback_end = { message, _, _ in Messages.table.withLock { $0.post(.ended, to: message) } }
        connection.pointee.callback_cancel = { message, _, _ in
            Messages.table.withLock { $0.post(.cancelled, to: message) }
        }
        connection.pointee.callback_pause = { message, _, _ in Messages.table.withLock { $0.post(.paused, to: message) } }
        connection.pointee.callback_resume = { message, _, _ in
            Messages.table.withLock { $0.post(.resumed, to: message) }
        }
        connection.pointee.callback_im = { message, _, _, mark in
            guard let mark else { return }
            let name = String(cString: mark)
            Messages.table.withLock { $0.post(.mark(name), to: message) }
        }
        spd_set_notification_on(connection, SPD_ALL)
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
            if Messages.table.withLock({ $0.takeEnd(of: id) }) { return true }
            usleep(20_000)
            waited += 0.02
        }
        return false
    }

    /// Sends `ssml` (a `<speak>` document) with `settings`, queued after this connection's earlier
    /// messages (and before any other client's `text` messages); its events, `<mark>`s included, come in the stream returned, which ends with
    /// `.ended` or `.cancelled`. Nil when the server refused a setting or the message.
    public func say(ssml: String, settings: SpeechDispatcherSettings) -> AsyncStream<SpeechDispatcherEvent>? {
        if let module = settings.module, spd_set_output_module(connection, module) != 0 { return nil }
        if let language = settings.language, spd_set_language(connection, language) != 0 { return nil }
        if let voice = settings.voice, spd_set_synthesis_voice(connection, voice) != 0 { return nil }
        guard spd_set_voice_rate(connection, Int32(settings.rate)) == 0,
            spd_set_voice_pitch(connection, Int32(settings.pitch)) == 0,
            spd_set_volume(connection, Int32(settings.volume)) == 0,
            spd_set_data_mode(connection, SPD_DATA_SSML) == 0
        else { return nil }
        // Priority `message`: the server queues a client's messages of this priority, where a new
        // `text` message would cancel the one playing (so utterances could not follow each other).
        let message = spd_say(connection, SPD_MESSAGE, ssml)
        guard message > 0 else { return nil }
        let (stream, continuation) = AsyncStream.makeStream(
            of: SpeechDispatcherEvent.self, bufferingPolicy: .unbounded)
        Messages.table.withLock { $0.follow(Int(message), with: continuation) }
        return stream
    }

    /// Pauses this connection's speech (the server pauses at its next index mark).
    public func pause() { spd_pause(connection) }

    /// Resumes this connection's paused speech.
    public func resume() { spd_resume(connection) }

    /// Stops this connection's message and drops those queued; every stream still open ends with
    /// `.cancelled`, whether or not the server reports each one.
    public func cancel() {
        spd_cancel(connection)
        Messages.table.withLock { $0.cancelAll() }
    }
}

/// How a message is spoken, on SSIP's scales.
public struct SpeechDispatcherSettings: Equatable, Sendable {
    /// The output module; nil: the server's default for the language.
    public var module: String?
    public var language: String?
    /// A voice name as the module lists it.
    public var voice: String?
    /// -100…100; 0 is normal.
    public var rate = 0
    public var pitch = 0
    /// -100…100; 100 is the server's default volume.
    public var volume = 100

    public init() {}
}

/// What the server reports of a message, in order.
public enum SpeechDispatcherEvent: Equatable, Sendable {
    case began
    case mark(String)
    case paused
    case resumed
    case ended
    case cancelled

    var isLast: Bool { self == .ended || self == .cancelled }
}

/// The messages a process follows, for libspeechd's callbacks, which carry no context. Events of
/// a message not followed yet (they can arrive before `spd_say` returns its ID) wait here.
private struct Messages {
    // `Locked`, not `Mutex`: ThreadSanitizer does not see `Mutex`'s futex (see `Locked`).
    static let table = Locked(Messages())

    private var followed: [Int: AsyncStream<SpeechDispatcherEvent>.Continuation] = [:]
    private var early: [Int: [SpeechDispatcherEvent]] = [:]

    mutating func post(_ event: SpeechDispatcherEvent, to message: Int) {
        guard let continuation = followed[message] else {
            early[message, default: []].append(event)
            // Late events of cancelled messages land here too and nobody asks for them: keep the
            // newest messages only (the server numbers them in order).
            if early.count > 64, let oldest = early.keys.min() { early[oldest] = nil }
            return
        }
        continuation.yield(event)
        if event.isLast {
            continuation.finish()
            followed[message] = nil
        }
    }

    mutating func follow(_ message: Int, with continuation: AsyncStream<SpeechDispatcherEvent>.Continuation) {
        followed[message] = continuation
        for event in early.removeValue(forKey: message) ?? [] { post(event, to: message) }
    }

    /// Whether `message` has ended, forgetting it if so.
    mutating func takeEnd(of message: Int) -> Bool {
        guard early[message]?.contains(where: \.isLast) == true else { return false }
        early[message] = nil
        return true
    }

    mutating func cancelAll() {
        for continuation in followed.values {
            continuation.yield(.cancelled)
            continuation.finish()
        }
        followed.removeAll()
    }
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
