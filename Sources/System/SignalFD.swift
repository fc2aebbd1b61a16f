internal import CUtterShims
import Glibc

/// SIGTERM and SIGINT delivered as a readable descriptor instead of to a handler, so a poll loop
/// can end what it is doing in order.
public final class SignalFD: Sendable {
    private let descriptor: FileDescriptor

    /// The signals that ask a process to end: SIGTERM and SIGINT.
    public static let termination: [Int32] = [SIGTERM, SIGINT]

    /// Blocks `signals` in the calling thread (call it before starting any thread, which then
    /// inherits the mask) and returns a descriptor they are delivered to; nil if the kernel refuses.
    public init?(blocking signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let fd = CUtterShims_signalfd(&set)
        guard fd >= 0 else { return nil }
        descriptor = FileDescriptor(taking: fd)
    }

    /// The descriptor, to poll for `POLLIN`.
    public var rawValue: Int32 { descriptor.rawValue }

    /// The number of a pending signal, consuming it; nil if none is pending.
    public func take() -> Int32? {
        var record = [UInt8](repeating: 0, count: Int(CUtterShims_signalfdRecordSize()))
        let count = record.withUnsafeMutableBytes { read(descriptor.rawValue, $0.baseAddress, $0.count) }
        guard count == record.count else { return nil }
        return record.withUnsafeBytes { Int32(bitPattern: $0.load(as: UInt32.self)) }
    }
}
