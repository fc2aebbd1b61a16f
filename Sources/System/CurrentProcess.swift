import Glibc

/// What a program does to its own process.
public enum CurrentProcess {
    /// A write to a closed pipe fails with EPIPE instead of killing the process: a module whose
    /// server went away must notice it and end in order.
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Ends the process with `status`, running exit handlers.
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// Ends the process with `status` at once, without exit handlers: for when threads that could
    /// not be joined may still be inside libraries whose handlers would tear their state down.
    public static func exitNow(_ status: Int32) -> Never {
        _exit(status)
    }
}
