public import Logging
public import System

/// Log lines kept for a test to read, each as "level: message".
public final class LogLines: Sendable {
    public let lines = Locked<[String]>([])
    public var all: [String] { lines.withLock { $0 } }
    public init() {}
}

/// A swift-log handler that keeps what is logged in ``LogLines``.
public struct CapturingLogHandler: LogHandler {
    public let sink: LogLines
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level

    public init(sink: LogLines, logLevel: Logger.Level = .info) {
        self.sink = sink
        self.logLevel = logLevel
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        sink.lines.withLock { $0.append("\(event.level): \(event.message)") }
    }
}
