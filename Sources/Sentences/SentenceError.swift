/// Why a text cannot be split into sentences.
public struct SentenceError: Error, CustomStringConvertible, Equatable {
    /// ICU's name for what failed (`U_MISSING_RESOURCE_ERROR`).
    public let code: String

    public var description: String {
        "ICU cannot find sentence boundaries (\(code)): is the libicu72 package installed whole?"
    }
}
