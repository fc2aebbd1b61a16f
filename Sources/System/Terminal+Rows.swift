import Glibc

extension Terminal {
    /// The height of standard output's terminal in rows; `$LINES`, else 24, when it has none.
    public static var rows: Int {
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { return Int(size.ws_row) }
        if let text = Environment.value("LINES"), let rows = Int(text), rows > 0 { return rows }
        return 24
    }
}
