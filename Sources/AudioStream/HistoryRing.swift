/// The last frames handed to the device, each at its position modulo the ring's size: after a
/// rewind on STOP they are what the device would have played, to fade out from. Allocated with
/// the device (see ``PCMDevice``); the render thread only copies in and out of it.
package struct HistoryRing {
    package let samples: UnsafeMutablePointer<Int16>
    package let frames: Int

    package init(samples: UnsafeMutablePointer<Int16>, frames: Int) {
        self.samples = samples
        self.frames = frames
    }

    /// Keeps a copy of `count` frames from `source`, which were handed over from `position` on.
    @_noLocks
    package func remember(_ source: UnsafeMutablePointer<Int16>, count: Int, from position: UInt64) {
        transfer(source, count: count, at: position, intoRing: true)
    }

    /// Copies `count` remembered frames from `position` on into `destination`.
    @_noLocks
    package func copy(from position: UInt64, count: Int, to destination: UnsafeMutablePointer<Int16>) {
        transfer(destination, count: count, at: position, intoRing: false)
    }

    /// Copies between `other` and the ring's frames for `position` onwards, in at most two pieces
    /// (before and after the end of the storage).
    @_noLocks
    private func transfer(_ other: UnsafeMutablePointer<Int16>, count: Int, at position: UInt64, intoRing: Bool) {
        guard frames > 0 else { return }
        var done = 0
        while done < count {
            let offset = Int((position + UInt64(done)) % UInt64(frames))
            let room = frames - offset
            let piece = count - done < room ? count - done : room
            let inRing = samples + offset
            let outside = other + done
            UnsafeMutableRawPointer(intoRing ? inRing : outside).copyMemory(
                from: intoRing ? outside : inRing, byteCount: piece * MemoryLayout<Int16>.stride)
            done += piece
        }
    }
}
