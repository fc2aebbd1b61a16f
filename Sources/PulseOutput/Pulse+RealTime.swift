internal import CPulse

// libpulse's calls on the render thread: the PulseAudio backend's whole real-time audit surface
// (CI allows `_unsafePerformance` only in `+RealTime.swift` files). They queue commands on the
// connection's socket or read state libpulse keeps, never waiting for the server; write buffers
// come from libpulse's preallocated shared-memory pool. Each wrapper says why it is acceptable.

/// The libpulse calls PulseRender.swift makes.
enum RealTimePulse {
    /// Drops our reference to a request.
    @_noLocks
    static func release(_ operation: OpaquePointer) {
        // pa_operation_unref: a request's reference to the stream and context, dropped.
        _unsafePerformance { pa_operation_unref(operation) }
    }

    /// Whether a request still waits for its answer.
    @_noLocks
    static func isRunning(_ operation: OpaquePointer) -> Bool {
        // pa_operation_get_state: reads a field.
        _unsafePerformance { pa_operation_get_state(operation) } == PA_OPERATION_RUNNING
    }

    /// Corks (`true`) or uncorks the stream, without waiting for the answer.
    @_noLocks
    static func cork(_ stream: OpaquePointer, _ corked: Bool) {
        // pa_stream_cork: queues the command; its request is released at once.
        if let operation = _unsafePerformance({ pa_stream_cork(stream, corked ? 1 : 0, nil, nil) }) {
            release(operation)
        }
    }

    /// Asks for a timing reply; the request, for the caller to watch and release.
    @_noLocks
    static func requestTiming(_ stream: OpaquePointer) -> OpaquePointer? {
        // pa_stream_update_timing_info: queues the request; the answer comes through the main loop.
        _unsafePerformance { pa_stream_update_timing_info(stream, nil, nil) }
    }

    /// The last timing reply, kept by libpulse.
    @_noLocks
    static func timing(_ stream: OpaquePointer) -> pa_timing_info? {
        // pa_stream_get_timing_info: reads what libpulse keeps.
        _unsafePerformance { pa_stream_get_timing_info(stream) }?.pointee
    }

    /// One wait of the main loop (`timeout` µs, -1: none) on the server's socket, its timers and
    /// our eventfd, then its callbacks; negative when the loop failed.
    @_noLocks
    static func iterate(_ mainloop: OpaquePointer, timeout: Int32) -> Int32 {
        // pa_mainloop_prepare, poll and dispatch: one poll, then the callbacks (which only set flags).
        var result = _unsafePerformance { pa_mainloop_prepare(mainloop, timeout) }
        if result >= 0 { result = _unsafePerformance { pa_mainloop_poll(mainloop) } }
        if result >= 0 { result = _unsafePerformance { pa_mainloop_dispatch(mainloop) } }
        return result
    }

    /// libpulse's error code when the main loop failed (`result` of ``iterate(_:timeout:)``) or the
    /// connection or the stream is no longer ready; nil when all is well.
    @_noLocks
    static func failure(context: OpaquePointer, stream: OpaquePointer, after result: Int32) -> Int32? {
        // pa_context_get_state, pa_stream_get_state, pa_context_errno: read fields.
        let contextState = _unsafePerformance { pa_context_get_state(context) }
        let streamState = _unsafePerformance { pa_stream_get_state(stream) }
        if result >= 0 && contextState == PA_CONTEXT_READY && streamState == PA_STREAM_READY { return nil }
        return _unsafePerformance { pa_context_errno(context) }
    }

    /// The bytes libpulse accounts as room in the server.
    @_noLocks
    static func writableBytes(_ stream: OpaquePointer) -> Int {
        // pa_stream_writable_size: reads the room libpulse accounts for.
        _unsafePerformance { pa_stream_writable_size(stream) }
    }

    /// A buffer of up to `bytes` (which it updates) to write into; nil when there is none.
    @_noLocks
    static func beginWrite(_ stream: OpaquePointer, bytes: inout Int) -> UnsafeMutableRawPointer? {
        var data: UnsafeMutableRawPointer? = nil
        // pa_stream_begin_write: a buffer from libpulse's shared-memory pool; no copy.
        guard _unsafePerformance({ pa_stream_begin_write(stream, &data, &bytes) }) >= 0 else { return nil }
        return data
    }

    /// Gives back a buffer from ``beginWrite(_:bytes:)`` unwritten.
    @_noLocks
    static func cancelWrite(_ stream: OpaquePointer) {
        // pa_stream_cancel_write: returns the pool buffer.
        _ = _unsafePerformance { pa_stream_cancel_write(stream) }
    }

    /// Writes `bytes` of `data` (from ``beginWrite(_:bytes:)``) `offset` bytes from the write
    /// index; negative on failure.
    @_noLocks
    static func write(_ stream: OpaquePointer, _ data: UnsafeMutableRawPointer, bytes: Int, offset: Int64) -> Int32 {
        // pa_stream_write: hands the pool buffer to the connection (no free callback: it is
        // libpulse's); PA_SEEK_RELATIVE with a negative offset writes over queued frames.
        _unsafePerformance { pa_stream_write(stream, data, bytes, nil, offset, PA_SEEK_RELATIVE) }
    }
}
