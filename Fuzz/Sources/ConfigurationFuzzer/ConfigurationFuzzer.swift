import Configuration

/// Reads arbitrary text as utter.conf: it must never trap, and every issue must name a real line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
    let (configuration, issues) = UtterConfiguration.parse(text)
    for issue in issues {
        precondition(
            issue.lineNumber >= 0 && issue.lineNumber <= lineCount, "issue at line \(issue.lineNumber) of \(lineCount)")
    }
    precondition(
        configuration.minimumRate <= configuration.normalRate && configuration.normalRate <= configuration.maximumRate)
    return 0
}
