package import System

/// What a backend's sink is asked for: the rate and buffering, and where it plays.
package struct SinkRequest: Sendable {
    package var sampleRate: Int
    /// The frames asked for at a time (a sound server's quantum or request size).
    package var periodFrames: Int
    /// The frames buffered in the server or device.
    package var bufferFrames: Int
    /// The sample ring's size, a power of two.
    package var ringCapacity = 1 << 17
    /// The server to play on (a socket path, a remote name); nil: the session's.
    package var address: String?
    /// The sink on that server; nil: its default.
    package var sink: String?
    /// The control thread's wake, which the sink signals.
    package var controlWake: EventFD

    package init(
        sampleRate: Int, periodFrames: Int, bufferFrames: Int, address: String? = nil, sink: String? = nil,
        controlWake: EventFD
    ) {
        self.sampleRate = sampleRate
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
        self.address = address
        self.sink = sink
        self.controlWake = controlWake
    }
}

/// A sound server's native backend on the stream core: one target implements it and one line in
/// UtterEngine's list (`SoundSession.servers`) lists it, in the order `AudioBackend auto` tries them.
package protocol SoundServerBackend: Sendable {
    /// Its name as utter.conf's `AudioBackend` says it.
    static var name: String { get }
    /// The client library it plays through, for `utter status`.
    static var library: String { get }
    /// Whether the session's server is there (its socket found as the library finds it); nothing is opened.
    static var isPresent: Bool { get }
    /// A sink playing through it, which connects at its first job (or ``StreamSink/prepare()``).
    static func makeSink(_ request: SinkRequest) throws(StreamError) -> StreamSink
    /// Whether a stream opens on `address` (nil: the session's server) now: the error if not.
    static func probe(address: String?) -> StreamError?
}

extension SoundServerBackend {
    /// ``probe(address:)`` as a sink of its own does it: connects, sets a stream up and closes it.
    package static func probeWithSink(address: String?, sampleRate: Int = 22050) -> StreamError? {
        do {
            let request = SinkRequest(
                sampleRate: sampleRate, periodFrames: sampleRate / 100, bufferFrames: sampleRate / 100 * 8,
                address: address, controlWake: try EventFD())
            let sink = try makeSink(request)
            defer { _ = sink.shutdown(until: MonotonicClock.now + 500_000_000) }
            try sink.prepare()
            return nil
        } catch let error as StreamError {
            return error
        } catch {
            return StreamError("\(error)")
        }
    }
}
