import Glibc

/// Shows a test's figures (a measure, a storm's memory) in the test log: on standard error, in one
/// write, so that they never split a line of the testing library's own output.
public func report(_ line: String) {
    let text = line + "\n"
    text.utf8CString.withUnsafeBufferPointer { bytes in
        var offset = 0
        let count = bytes.count - 1
        while offset < count {
            let written = write(2, bytes.baseAddress! + offset, count - offset)
            if written <= 0 { break }
            offset += written
        }
    }
}
