/// A failure while running a command, told the way the user can act on it.
struct UtterError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
