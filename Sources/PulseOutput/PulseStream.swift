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
    /// The frames the render thread writes at least, when it must write and the server has no room.
    let periodFrames: Int
    /// How often the render thread asks where the server reads while sound plays, and wakes at
    /// the latest: on PulseAudio every other request (each reply is a wakeup of its own), on
    /// pipewire-pulse every period.
    let timingFrames: Int
    /// The frames the render thread writes at most at a time: the server's target buffer.
    let bufferFrames: Int
    /// Whether the server takes back what it has read when frames are rewritten (PulseAudio
    /// rewinds its sink), or plays on what it took (pipewire-pulse hands its graph a quantum at
    /// each cycle and keeps no way back): a STOP's fade then must start past that quantum.
    let rewindsOnRewrite: Bool
    /// Whether the sink the stream was opened on is known to rewind what it mixed ahead when a
    /// stream rewrites it: a STOP's fade can then start where the listener is, before the server's
    /// read index, and the server takes back what its sink mixed past that. Until the stream moves
    /// to another sink (``StreamSignals``). See ``Cleanup/sinkRewinds(until:)``.
    let sinkRewinds: Bool
    /// At most how many frames a server that does not rewind takes at a cycle before the first
    /// steps are seen: pipewire-pulse makes the stream's latency, which bounds its graph's quantum,
    /// what the granted target buffer holds beyond two requests.
    let readStepBound: Int

    /// Flags the stream's callbacks raise for the render thread, which clears them.
    struct StreamSignals {
        /// The server found the stream's buffer empty: everything written has been read.
        var underflow = false
        /// The stream was moved to another sink, whose rewinding is not known.
        var moved = false
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
        let where_ = server.map { "'\($0)'" } ?? "the session's sound server"
        var cleanup = try Self.connect(to: server, named: where_, until: deadline)
        let pipeWire = try cleanup.isPipeWire(until: deadline)
        // Timing is asked for by the render thread while the stream plays (no automatic updates,
        // which go on while it is corked). A small buffer; playback starts with the first frame
        // written (a key echo shorter than any threshold must still start). PulseAudio asks for a
        // quarter of it at a time: each request wakes the render thread, and requests of a period
        // (10 ms) cost 100 wakeups a second for nothing. pipewire-pulse keeps a period: it derives
        // the stream's latency, and so its graph's quantum, from the request size.
        let request = pipeWire ? periodFrames : max(periodFrames, bufferFrames / 4)
        let frameBytes = UInt32(MemoryLayout<Int16>.size)
        let asked = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32(bufferFrames) * frameBytes, prebuf: frameBytes,
            minreq: UInt32(request) * frameBytes, fragsize: UInt32.max)
        let stream = try Self.openPlayback(
            &cleanup, on: sink, of: where_, sampleRate: sampleRate, attributes: asked, until: deadline)
        let sinkRewinds = pipeWire ? false : try cleanup.sinkRewinds(until: deadline)
        signals = Self.watchSignals(of: stream)
        wakeEvent = Self.watch(wakeFD, api: pa_mainloop_get_api(cleanup.mainloop))
        let granted = pa_stream_get_buffer_attr(stream)?.pointee ?? asked
        self.bufferFrames = max(Int(granted.tlength / frameBytes), periodFrames)
        let beyondRequests = Int(granted.tlength / frameBytes) - 2 * Int(granted.minreq / frameBytes)
        self.readStepBound = max(beyondRequests, periodFrames)
        self.rewindsOnRewrite = !pipeWire
        self.sinkRewinds = sinkRewinds
        // The server asks for its granted `minreq` at a time.
        let requestFrames = max(Int(granted.minreq / frameBytes), periodFrames)
        // (pipewire-pulse is asked every period, as it always was: asked every other request, a
        // fade placed from an older reply started a quantum later there, and marks were
        // published less often; both went 6 ms later.)
        self.timingFrames = pipeWire ? periodFrames : 2 * requestFrames
        self.mainloop = cleanup.mainloop
        self.context = cleanup.context
        self.stream = stream
        self.sampleRate = sampleRate
        self.periodFrames = periodFrames
    }

    /// A main loop and a context connected to `server` (described as `where_` in errors).
    private static func connect(to server: String?, named where_: String, until deadline: UInt64) throws(StreamError)
        -> Cleanup
    {
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
        return cleanup
    }

    /// A playback stream on `sink` (nil: the server's choice) asking for `attributes`, corked
    /// until the first frames, ready; left in `cleanup` so that a later failure closes it too.
    private static func openPlayback(
        _ cleanup: inout Cleanup, on sink: String?, of where_: String, sampleRate: Int, attributes: pa_buffer_attr,
        until deadline: UInt64
    ) throws(StreamError) -> OpaquePointer {
        let context = cleanup.context
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
        var attributes = attributes
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
        return stream
    }

    /// The flags `stream`'s callbacks raise for the render thread, preallocated.
    private static func watchSignals(of stream: OpaquePointer) -> UnsafeMutablePointer<StreamSignals> {
        let signals = UnsafeMutablePointer<StreamSignals>.allocate(capacity: 1)
        signals.initialize(to: StreamSignals())
        pa_stream_set_underflow_callback(
            stream,
            { _, userdata in
                userdata?.assumingMemoryBound(to: StreamSignals.self).pointee.underflow = true
            }, signals)
        pa_stream_set_moved_callback(
            stream,
            { _, userdata in
                userdata?.assumingMemoryBound(to: StreamSignals.self).pointee.moved = true
            }, signals)
        return signals
    }

    /// Watches the render thread's eventfd in the main loop (none for a probe), reading its
    /// counter so that the next write wakes the loop again.
    private static func watch(_ wakeFD: Int32, api: UnsafeMutablePointer<pa_mainloop_api>?) -> OpaquePointer? {
        guard wakeFD >= 0 else { return nil }
        return api?.pointee.io_new(
            api, wakeFD, PA_IO_EVENT_INPUT,
            { _, _, fd, _, _ in
                var counter: UInt64 = 0
                _ = read(fd, &counter, MemoryLayout<UInt64>.size)
            }, nil)
    }

    deinit {
        if let wakeEvent, let api = pa_mainloop_get_api(mainloop) { api.pointee.io_free(wakeEvent) }
        pa_stream_set_underflow_callback(stream, nil, nil)
        pa_stream_set_moved_callback(stream, nil, nil)
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
            try ask(until: deadline, what: "the server's name") { context, answer in
                pa_context_get_server_info(
                    context,
                    { _, info, userdata in
                        let answer = userdata!.assumingMemoryBound(to: Answer.self)
                        if let name = info?.pointee.server_name {
                            answer.pointee.yes = String(cString: name).contains("PipeWire")
                        }
                        answer.pointee.done = true
                    }, answer)
            }
        }

        /// Whether the stream's sink is one PulseAudio rewinds when a stream rewrites what it
        /// mixed: a sink with dynamic latency (it mixes ahead) that is a sound card's ALSA sink
        /// (`device.api` alsa with an `alsa.card`: PulseAudio rewinds hardware devices) or the null
        /// sink. Its server says nothing of rewinding itself, and dynamic latency alone does not
        /// tell: the pipe sink has it and cannot rewind, nor can Bluetooth or network sinks, nor
        /// is it known for filter sinks, which all keep the fade after the read index.
        mutating func sinkRewinds(until deadline: UInt64) throws(StreamError) -> Bool {
            guard let stream else { return false }
            let sink = pa_stream_get_device_index(stream)
            guard sink != UInt32.max else { return false }  // (PA_INVALID_INDEX)
            return try ask(until: deadline, what: "about the stream's sink") { context, answer in
                pa_context_get_sink_info_by_index(
                    context, sink,
                    { _, info, eol, userdata in
                        let answer = userdata!.assumingMemoryBound(to: Answer.self)
                        if let info {
                            let dynamic = info.pointee.flags.rawValue & PA_SINK_DYNAMIC_LATENCY.rawValue != 0
                            let driver = info.pointee.driver.map { String(cString: $0) } ?? ""
                            let api = pa_proplist_gets(info.pointee.proplist, "device.api").map { String(cString: $0) }
                            let card = pa_proplist_gets(info.pointee.proplist, "alsa.card") != nil
                            let soundCard = driver.hasPrefix("module-alsa-") && api == "alsa" && card
                            answer.pointee.yes = dynamic && (soundCard || driver == "module-null-sink.c")
                        }
                        if eol != 0 || info != nil { answer.pointee.done = true }
                    }, answer)
            }
        }

        /// A yes-or-no answer filled in by a libpulse callback.
        typealias Answer = (done: Bool, yes: Bool)

        /// Sends the request `send` makes (its callback fills the answer it is given) and runs the
        /// main loop until the answer comes; closes everything and throws when none comes by
        /// `deadline` or the request fails.
        private mutating func ask(
            until deadline: UInt64, what: String,
            send: (OpaquePointer, UnsafeMutablePointer<Answer>) -> OpaquePointer?
        ) throws(StreamError) -> Bool {
            let answer = UnsafeMutablePointer<Answer>.allocate(capacity: 1)
            answer.initialize(to: (false, false))
            defer { answer.deallocate() }
            let operation = send(context, answer)
            do throws(StreamError) {
                try PulseStream.run(mainloop, until: deadline, what: "asking \(what)") {
                    () throws(StreamError) -> Bool in
                    if answer.pointee.done { return true }
                    guard let operation, pa_operation_get_state(operation) == PA_OPERATION_RUNNING else {
                        throw StreamError("the server did not answer when asked \(what)")
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
            return answer.pointee.yes
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
