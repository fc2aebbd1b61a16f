internal import CPulse
import AudioStream
import Glibc
import System

/// One connection to a PulseAudio-protocol server with a playback stream on it, and the main loop
/// that drives both: opened by the synth thread (which runs the loop until the stream is ready),
/// then played by the render thread alone, then handed back to be closed (see ``PulseMailbox``).
///
/// libpulse objects belong to the thread running their main loop; this type is moved between
/// threads only through the mailbox, whose release and acquire order everything done before.
struct PulseStream: ~Copyable {
    let mainloop: OpaquePointer
    let context: OpaquePointer
    let stream: OpaquePointer
    /// The render thread's eventfd (none for a probe), watched by this main loop so a new sample or
    /// a STOP wakes it.
    private let wakeEvent: OpaquePointer?
    /// What the stream's callbacks tell the render thread (an underflow), preallocated.
    let signals: UnsafeMutablePointer<StreamSignals>
    /// Which stream this is, so the render thread can report the one that failed.
    var serial: UInt64 = 0
    let sampleRate: Int
    /// The frames the server asks for at a time.
    let periodFrames: Int
    /// The frames the render thread writes at most at a time: the server's target buffer.
    let bufferFrames: Int
    /// Whether the server takes back what it has read when frames are rewritten (PulseAudio
    /// rewinds its sink), or plays on what it took (pipewire-pulse hands its graph a quantum at
    /// each cycle and keeps no way back): a STOP's fade then must start past that quantum.
    let rewindsOnRewrite: Bool
    /// At most how many frames a server that does not rewind takes at a cycle before the first
    /// steps are seen: pipewire-pulse makes the stream's latency, which bounds its graph's quantum,
    /// what the granted target buffer holds beyond two requests.
    let readStepBound: Int

    /// Flags the stream's callbacks raise for the render thread, which clears them.
    struct StreamSignals {
        /// The server found the stream's buffer empty: everything written has been read.
        var underflow = false
    }

    /// The freedesktop icon mixers show for Utter's stream.
    static let iconName = "preferences-desktop-accessibility"

    /// Connects to `server` (nil: the session's, as libpulse finds it) and sets up a playback
    /// stream of 16-bit mono at `sampleRate`, buffering `bufferFrames` frames and asking for more a
    /// period at a time; gives up at `deadline` (MonotonicClock ns).
    init(
        server: String?, sink: String?, sampleRate: Int, periodFrames: Int, bufferFrames: Int, wakeFD: Int32,
        deadline: UInt64
    ) throws(StreamError) {
        guard let mainloop = pa_mainloop_new() else { throw StreamError("libpulse cannot create a main loop") }
        let api = pa_mainloop_get_api(mainloop)
        let properties = pa_proplist_new()
        pa_proplist_sets(properties, PA_PROP_APPLICATION_NAME, "Utter")
        pa_proplist_sets(properties, PA_PROP_APPLICATION_ID, "org.utter.sd_utter")
        pa_proplist_sets(properties, PA_PROP_APPLICATION_ICON_NAME, Self.iconName)
        defer { pa_proplist_free(properties) }
        guard let context = pa_context_new_with_proplist(api, "Utter", properties) else {
            pa_mainloop_free(mainloop)
            throw StreamError("libpulse cannot create a context")
        }
        var cleanup = Cleanup(mainloop: mainloop, context: context)
        let where_ = server.map { "'\($0)'" } ?? "the session's sound server"
        guard pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            let reason = String(cString: pa_strerror(pa_context_errno(context)))
            cleanup.close()
            throw StreamError("cannot connect to \(where_) (\(reason))")
        }
        try cleanup.wait(until: deadline, for: "connecting to \(where_)", failure: "cannot connect to \(where_)") {
            switch pa_context_get_state(context) {
            case PA_CONTEXT_READY: true
            case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED: nil
            default: false
            }
        }

        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(sampleRate), channels: 1)
        // The role on the stream itself, which role policies (module-role-ducking, -cork) read.
        let streamProperties = pa_proplist_new()
        pa_proplist_sets(streamProperties, PA_PROP_MEDIA_ROLE, "a11y")
        pa_proplist_sets(streamProperties, PA_PROP_MEDIA_NAME, "Speech")
        pa_proplist_sets(streamProperties, PA_PROP_APPLICATION_ICON_NAME, Self.iconName)
        defer { pa_proplist_free(streamProperties) }
        guard let stream = pa_stream_new_with_proplist(context, "Speech", &spec, nil, streamProperties) else {
            let reason = String(cString: pa_strerror(pa_context_errno(context)))
            cleanup.close()
            throw StreamError("\(where_) refused a \(sampleRate) Hz mono stream (\(reason))")
        }
        cleanup.stream = stream
        let frameBytes = UInt32(MemoryLayout<Int16>.size)
        // Timing is asked for by the render thread while the stream plays (no automatic updates,
        // which go on while it is corked). A small buffer asked a period at a time; playback starts with the first frame written (a
        // key echo shorter than any threshold must still start), and STOP flushes the buffer.
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32(bufferFrames) * frameBytes, prebuf: frameBytes,
            minreq: UInt32(periodFrames) * frameBytes, fragsize: UInt32.max)
        let flags = pa_stream_flags_t(
            rawValue: PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_ADJUST_LATENCY.rawValue
                | PA_STREAM_START_CORKED.rawValue)
        guard pa_stream_connect_playback(stream, sink, &attributes, flags, nil, nil) >= 0 else {
            let reason = String(cString: pa_strerror(pa_context_errno(context)))
            cleanup.close()
            throw StreamError("\(where_) refused a playback stream (\(reason))")
        }
        try cleanup.wait(
            until: deadline, for: "opening a stream on \(where_)", failure: "\(where_) refused a playback stream"
        ) {
            switch pa_stream_get_state(stream) {
            case PA_STREAM_READY: true
            case PA_STREAM_FAILED, PA_STREAM_TERMINATED: nil
            default: false
            }
        }

        let pipeWire = try cleanup.isPipeWire(until: deadline)
        signals = .allocate(capacity: 1)
        signals.initialize(to: StreamSignals())
        pa_stream_set_underflow_callback(
            stream,
            { _, userdata in
                userdata?.assumingMemoryBound(to: StreamSignals.self).pointee.underflow = true
            }, signals)
        // Reads the eventfd's counter, so the next write wakes the loop again.
        wakeEvent = wakeFD < 0 ? nil : api?.pointee.io_new(
            api, wakeFD, PA_IO_EVENT_INPUT,
            { _, _, fd, _, _ in
                var counter: UInt64 = 0
                _ = read(fd, &counter, MemoryLayout<UInt64>.size)
            }, nil)
        let grantedAttributes = pa_stream_get_buffer_attr(stream)?.pointee ?? attributes
        let granted = grantedAttributes.tlength
        self.bufferFrames = max(Int(granted / frameBytes), periodFrames)
        let beyondRequests = Int(granted / frameBytes) - 2 * Int(grantedAttributes.minreq / frameBytes)
        self.readStepBound = max(beyondRequests, periodFrames)
        self.rewindsOnRewrite = !pipeWire
        self.mainloop = mainloop
        self.context = context
        self.stream = stream
        self.sampleRate = sampleRate
        self.periodFrames = periodFrames
    }

    deinit {
        if let wakeEvent, let api = pa_mainloop_get_api(mainloop) { api.pointee.io_free(wakeEvent) }
        pa_stream_set_underflow_callback(stream, nil, nil)
        var cleanup = Cleanup(mainloop: mainloop, context: context)
        cleanup.stream = stream
        cleanup.close()
        signals.deallocate()
    }

    /// Runs `mainloop` until `done` says so, in waits of at most 50 ms, or throws at `deadline`.
    private static func run(
        _ mainloop: OpaquePointer, until deadline: UInt64, what: String, done: () throws(StreamError) -> Bool
    ) throws(StreamError) {
        while try !done() {
            guard MonotonicClock.now < deadline else { throw StreamError("no answer while \(what)") }
            pa_mainloop_prepare(mainloop, 50_000)
            pa_mainloop_poll(mainloop)
            guard pa_mainloop_dispatch(mainloop) >= 0 else { throw StreamError("libpulse's main loop failed while \(what)") }
        }
    }

    /// Closes what was made, newest first; none of these calls waits for the server.
    private struct Cleanup {
        let mainloop: OpaquePointer
        let context: OpaquePointer
        var stream: OpaquePointer?

        /// Runs the main loop until `state` says ready (true) or failed (nil), or `deadline`;
        /// closes everything and throws on failure (`failure`, with libpulse's reason) or time-out.
        mutating func wait(
            until deadline: UInt64, for what: String, failure: String, state: () -> Bool?
        ) throws(StreamError) {
            let context = context
            do throws(StreamError) {
                try PulseStream.run(mainloop, until: deadline, what: what) { () throws(StreamError) -> Bool in
                    guard let ready = state() else {
                        throw StreamError("\(failure) (\(String(cString: pa_strerror(pa_context_errno(context)))))")
                    }
                    return ready
                }
            } catch {
                close()
                throw error
            }
        }

        /// Whether the server is PipeWire's pipewire-pulse, which names itself so in its server
        /// information ("PulseAudio (on PipeWire 0.3.65)").
        mutating func isPipeWire(until deadline: UInt64) throws(StreamError) -> Bool {
            typealias Answer = (done: Bool, pipeWire: Bool)
            let answer = UnsafeMutablePointer<Answer>.allocate(capacity: 1)
            answer.initialize(to: (false, false))
            defer { answer.deallocate() }
            let operation = pa_context_get_server_info(
                context,
                { _, info, userdata in
                    let answer = userdata!.assumingMemoryBound(to: Answer.self)
                    if let name = info?.pointee.server_name {
                        answer.pointee.pipeWire = String(cString: name).contains("PipeWire")
                    }
                    answer.pointee.done = true
                }, answer)
            do throws(StreamError) {
                try PulseStream.run(mainloop, until: deadline, what: "asking the server's name") {
                    () throws(StreamError) -> Bool in
                    if answer.pointee.done { return true }
                    guard let operation, pa_operation_get_state(operation) == PA_OPERATION_RUNNING else {
                        throw StreamError("the server did not say its name")
                    }
                    return false
                }
            } catch {
                // The request lets go of the context before the context is closed.
                if let operation { pa_operation_unref(operation) }
                close()
                throw error
            }
            if let operation { pa_operation_unref(operation) }
            return answer.pointee.pipeWire
        }

        mutating func close() {
            if let stream {
                pa_stream_disconnect(stream)
                pa_stream_unref(stream)
            }
            stream = nil
            pa_context_disconnect(context)
            pa_context_unref(context)
            pa_mainloop_free(mainloop)
        }
    }
}

extension PulseStream {
    /// libpulse's words for an error code.
    static func describe(_ code: Int32) -> String {
        String(cString: pa_strerror(code))
    }
}
