import Glibc

/// A new, empty folder under /tmp, removed with everything in it when the value goes.
public final class TemporaryFolder {
    public let path: String

    public init(prefix: String = "utter-test") {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed: \(errno)")
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    deinit {
        _ = system("rm -rf '\(path)'")
    }
}
