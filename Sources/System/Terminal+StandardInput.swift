import Glibc

extension Terminal {
    /// Whether standard input is a terminal: nothing was piped or redirected into the program.
    public static var isStandardInputTerminal: Bool {
        isatty(0) == 1
    }
}
