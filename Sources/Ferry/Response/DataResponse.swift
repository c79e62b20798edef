import Foundation

/// Everything known about a finished request: what was sent, what came back, the serialized result, and what
/// Ferry measured.
public struct DataResponse<Value: Sendable>: Sendable {
    /// The request as sent (defaults applied), or `nil` when it could not be built.
    public var request: Request?
    /// The response head, or `nil` when none arrived.
    public var response: HTTPResponse?
    /// The response body, or `nil` when none arrived.
    public var data: Data?
    /// The serialized value, or why there is none.
    public var result: Result<Value, FerryError>
    /// What Ferry counted.
    public var metrics: Metrics
    /// When each step happened.
    public var timeline: Timeline

    /// Creates a response.
    /// - Parameters:
    ///   - request: The request.
    ///   - response: The response head.
    ///   - data: The body.
    ///   - result: The result.
    ///   - metrics: The metrics.
    ///   - timeline: The timeline.
    public init(
        request: Request?,
        response: HTTPResponse?,
        data: Data?,
        result: Result<Value, FerryError>,
        metrics: Metrics,
        timeline: Timeline
    ) {
        self.request = request
        self.response = response
        self.data = data
        self.result = result
        self.metrics = metrics
        self.timeline = timeline
    }

    /// The value, or `nil` on failure.
    public var value: Value? { try? result.get() }
    /// The error, or `nil` on success.
    public var error: FerryError? {
        guard case .failure(let error) = result else { return nil }
        return error
    }
    /// The status code, or `nil` when no response arrived.
    public var statusCode: Int? { response?.statusCode }
}
