public import Logging
import RegularFiles
import Synchronization
import System

/// Where the module's log lines go: stderr (which speech-dispatcher sends to `utter.log`) and,
/// after `DEBUG ON`, a debug file too. Shared by every thread; the level is one atomic, so
/// `LOGLEVEL` and `DEBUG` apply everywhere at once. Never used on the render thread.
public final class LogSink: Sendable {
    private let level: Atomic<UInt8>
    private let debugFD = Atomic<Int32>(-1)
    private let standardErrorFD: Int32

    public init(level: Logger.Level = .info, standardErrorFD: Int32 = 2) {
        self.level = Atomic(Self.code(level))
        self.standardErrorFD = standardErrorFD
    }

    /// The level below which lines are dropped (a debug file gets everything).
    public var logLevel: Logger.Level {
        get { Logger.Level.allCases[Int(level.load(ordering: .relaxed))] }
        set { level.store(Self.code(newValue), ordering: .relaxed) }
    }

    /// Sets the level from speech-dispatcher's `log_level` (0–5, 5 the most detailed).
    ///
    /// Errors are always logged: the server sends 0 whenever it was started with `-l`, whatever
    /// the level, and a silent log would hide why speech failed.
    public func setSpeechDispatcherLevel(_ value: Int) {
        let levels: [Logger.Level] = [.error, .error, .warning, .notice, .info, .debug]
        logLevel = levels[min(5, max(0, value))]
    }

    /// Starts copying every line, debug included, to `path` (truncated, as upstream modules do).
    /// Only a regular file is taken: writing to a FIFO or device could block whatever logs.
    func openDebugFile(_ path: String) -> Result<Void, FileError> {
        let fd: Int32
        switch openRegularFile(path, for: .writingFromStart) {
        case .success(let file): fd = file.descriptor
        case .failure(let error): return .failure(error)
        }
        let old = debugFD.exchange(fd, ordering: .acquiringAndReleasing)
        if old >= 0 { FileDescriptor(taking: old).close() }
        return .success(())
    }

    /// Stops copying lines to the debug file.
    public func closeDebugFile() {
        let old = debugFD.exchange(-1, ordering: .acquiringAndReleasing)
        if old >= 0 { FileDescriptor(taking: old).close() }
    }

    /// A logger writing to this sink.
    public func logger(label: String) -> Logger {
        Logger(label: label) { label in Handler(label: label, sink: self) }
    }

    func emit(level lineLevel: Logger.Level, label: String, message: String, metadata: String) {
        let toStandardError = Self.code(lineLevel) >= level.load(ordering: .relaxed)
        let debug = debugFD.load(ordering: .acquiring)
        guard toStandardError || debug >= 0 else { return }
        let line = "\(TimeOfDay.now.formatted) \(label) \(lineLevel): \(message)\(metadata)\n"
        var bytes = Array(line.utf8)
        if toStandardError { writeAll(standardErrorFD, &bytes) }
        if debug >= 0 { writeAll(debug, &bytes) }
    }

    private func writeAll(_ fd: Int32, _ bytes: inout [UInt8]) {
        // A lost log line must never stop the module: a failed write is not retried.
        _ = bytes.withUnsafeBytes { BorrowedDescriptor(fd).writeAll($0) }
    }

    private static func code(_ level: Logger.Level) -> UInt8 {
        UInt8(Logger.Level.allCases.firstIndex(of: level)!)
    }


    private struct Handler: LogHandler {
        let label: String
        let sink: LogSink
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace  // the sink filters

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var all = metadata
            if let extra = event.metadata { all.merge(extra) { $1 } }
            let rendered =
                all.isEmpty
                ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            sink.emit(level: event.level, label: label, message: "\(event.message)", metadata: rendered)
        }
    }
}
