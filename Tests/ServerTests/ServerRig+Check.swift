import TestSupport
import Testing

extension ServerRig {
    /// Records an issue (like #expect) and remembers that logs must be printed.
    @discardableResult
    func check(
        _ condition: Bool, _ message: @autoclosure () -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        if !condition {
            markFailed()
            Issue.record(Comment(rawValue: message()), sourceLocation: sourceLocation)
        }
        return condition
    }
}
