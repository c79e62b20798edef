/// A mistake in the command line: printed on standard error with a hint, and `ferry` exits with
/// ``ExitCode/usage``.
struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, as one sentence without the `ferry:` prefix.
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
