extension StringProtocol {
    /// The text without the ASCII spaces around it; tabs and other white space stay (a protocol
    /// value or table field may hold them on purpose).
    public func trimmingSpaces() -> SubSequence {
        var slice = self[...]
        while slice.first == " " { slice = slice.dropFirst() }
        while slice.last == " " { slice = slice.dropLast() }
        return slice
    }
}
