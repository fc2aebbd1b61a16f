// PipeWire's real-time data thread enters Swift here: the PipeWire backend's real-time audit
// surface. Everything the entry calls (PipeWireRenderSide.process, AudioStream's render core) is
// checked `@_noLocks`; the entry itself cannot be: it turns the data pointer back into the objects
// those functions take, which an unoptimized build does with a retain and a release (checked: the
// attribute fails there with "reference counting operations"). The objects outlive the stream (the
// connection keeps them), so those never free anything; an optimized build emits neither. The C
// side's calls on this thread are listed at `on_process` in CPipeWireShims.c.

import AudioStream

/// The stream's process callback (PipeWire's data thread), handed to C: `data` is the render side.
func pipeWireProcess(
    _ data: UnsafeMutableRawPointer?, _ samples: UnsafeMutablePointer<Int16>?, _ frames: UInt32, _ pending: UInt64,
    _ cycleTime: UInt64, _ wakeLoop: UnsafeMutablePointer<Bool>?
) -> UInt32 {
    guard let data, let samples else { return 0 }
    let side = Unmanaged<PipeWireRenderSide>.fromOpaque(data)
    let (filled, sleep) = side._withUnsafeGuaranteedRef { side in
        side.ringReference._withUnsafeGuaranteedRef { ring in
            side.sharedReference._withUnsafeGuaranteedRef { shared in
                side.process(
                    into: samples, frames: Int(frames), pending: pending, cycleTime: cycleTime, ring: ring,
                    shared: shared)
            }
        }
    }
    wakeLoop?.pointee = sleep
    return UInt32(filled)
}
