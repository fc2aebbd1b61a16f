import System

/// Shows a test's figures (a measure, a storm's memory) in the test log: on standard error, in one
/// write, so that they never split a line of the testing library's own output.
public func report(_ line: String) {
    var text = line + "\n"
    _ = text.withUTF8 { BorrowedDescriptor(2).writeAll(UnsafeRawBufferPointer($0)) }
}
