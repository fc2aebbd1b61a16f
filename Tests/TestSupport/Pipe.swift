import CTestShims
import Glibc

/// Pipes whose ends a child spawned by another test cannot inherit.
public enum Pipe {
    /// Both ends of a new pipe, close-on-exec from the start; the caller closes them. The errno
    /// when the system refuses.
    public static func closeOnExec() -> Result<(read: Int32, write: Int32), PipeError> {
        var ends: [Int32] = [-1, -1]
        guard CTestShims_pipeCloseOnExec(&ends) == 0 else { return .failure(PipeError(code: errno)) }
        return .success((ends[0], ends[1]))
    }
}

/// Why a pipe could not be made.
public struct PipeError: Error {
    public let code: Int32
}
