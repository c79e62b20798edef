import Foundation

/// How a request ended, as an ``EventMonitor`` learns it.
public struct RequestCompletion: Sendable {
    /// The request as sent (defaults applied), or `nil` when it could not be built.
    public var request: Request?
    /// The final response head, or `nil` when none arrived.
    public var response: HTTPResponse?
    /// Why the transfer failed, or `nil` when it succeeded (validation and serialization, which each task runs on
    /// its own, are not part of it).
    public var error: FerryError?
    /// What Ferry counted.
    public var metrics: Metrics
    /// When each step happened.
    public var timeline: Timeline

    /// Creates a completion.
    /// - Parameters:
    ///   - request: The request.
    ///   - response: The final head.
    ///   - error: The transfer's error.
    ///   - metrics: The metrics.
    ///   - timeline: The timeline.
    public init(
        request: Request?, response: HTTPResponse?, error: FerryError?, metrics: Metrics, timeline: Timeline
    ) {
        self.request = request
        self.response = response
        self.error = error
        self.metrics = metrics
        self.timeline = timeline
    }
}
