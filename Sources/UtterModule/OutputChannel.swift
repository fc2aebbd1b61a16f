import System

/// The module's stdout: the protocol channel to speech-dispatcher. Written by the control thread
/// only, one whole reply or event per call, so nothing can interleave.
struct OutputChannel {
    let descriptor: BorrowedDescriptor
    /// False once the server closed its end (EPIPE): the module then exits.
    private(set) var isOpen = true

    init(fd: Int32) {
        self.descriptor = BorrowedDescriptor(fd)
    }

    mutating func send(_ text: String) {
        guard isOpen else { return }
        var text = text
        // EPIPE or worse: the server is gone.
        if text.withUTF8({ descriptor.writeAll(UnsafeRawBufferPointer($0)) }) != nil { isOpen = false }
    }
}
