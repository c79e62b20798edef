import Foundation

/// An attempt that failed, as a ``RequestRetrier`` sees it.
public struct FailedAttempt: Sendable {
    /// The request as this attempt sent it: the session's defaults applied and adapted (its first hop, before any
    /// redirect). A retry sends it again from the start, adapted anew.
    public var request: Request
    /// Why the attempt failed: a transport failure, or ``FerryError/Reason/unacceptableStatus(_:)`` with the
    /// response head when the status failed the session's validation.
    public var error: FerryError
    /// The attempt's number: 1 for the first.
    public var attempt: Int
    /// The time since the first attempt started, on the session's clock, waits included.
    public var elapsed: Duration
    /// The errors of the earlier attempts of this request, oldest first.
    public var previousErrors: [FerryError]

    /// Creates a failed attempt (for testing retriers).
    /// - Parameters:
    ///   - request: The request the attempt sent.
    ///   - error: Why it failed.
    ///   - attempt: Its number, from 1.
    ///   - elapsed: The time since the first attempt started.
    ///   - previousErrors: The errors of the earlier attempts.
    public init(
        request: Request, error: FerryError, attempt: Int = 1, elapsed: Duration = .zero,
        previousErrors: [FerryError] = []
    ) {
        self.request = request
        self.error = error
        self.attempt = attempt
        self.elapsed = elapsed
        self.previousErrors = previousErrors
    }

    /// The response head, when one arrived.
    public var response: HTTPResponse? { error.response }
}
