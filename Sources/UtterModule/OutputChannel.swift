import Glibc

/// The module's stdout: the protocol channel to speech-dispatcher. Written by the control thread
/// only, one whole reply or event per call, so nothing can interleave.
struct OutputChannel {
    let fd: Int32
    /// False once the server closed its end (EPIPE): the module then exits.
    private(set) var isOpen = true

    init(fd: Int32) {
        self.fd = fd
    }

    mutating func send(_ text: String) {
        guard isOpen else { return }
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    isOpen = false  // EPIPE or worse: the server is gone
                    return
                }
                offset += written
            }
        }
    }
}
