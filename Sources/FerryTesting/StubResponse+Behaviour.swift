import Ferry
import Foundation

extension StubResponse {
    /// A request that fails before any response arrives, as a real transport's would.
    /// - Parameter failure: What goes wrong: ``StubFailure/connectionRefused``, ``StubFailure/timedOut``, ….
    /// - Returns: The stub.
    public static func failure(_ failure: StubFailure) -> StubResponse {
        var stub = StubResponse()
        stub.failure = failure
        return stub
    }

    /// A body that arrives chunk by chunk, `interval` apart (the first chunk at once): for progress, streaming and
    /// idle-timeout tests. A timeout or a cancellation stops the wait.
    /// - Parameters:
    ///   - chunks: The chunks.
    ///   - interval: The pause before each chunk after the first.
    ///   - statusCode: The status code; 200 by default.
    ///   - headers: The headers.
    /// - Returns: The stub.
    public static func streamed(
        _ chunks: [Data], interval: Duration, statusCode: Int = 200, headers: HTTPHeaders = [:]
    ) -> StubResponse {
        var stub = StubResponse(statusCode: statusCode, headers: headers, chunks: chunks)
        stub.chunkInterval = interval
        return stub
    }

    /// This response, answered only after `delay` (a slow server). A timeout or a cancellation stops the wait.
    /// - Parameter delay: How long the head takes to arrive.
    /// - Returns: The stub.
    public func delayed(by delay: Duration) -> StubResponse {
        var stub = self
        stub.delay = delay
        return stub
    }

    /// This response, whose body breaks off with `failure` after its chunks: a reset mid-download, for instance.
    /// No `Content-Length` is added; set one to say how much was promised.
    /// - Parameter failure: How the body ends.
    /// - Returns: The stub.
    public func failing(with failure: StubFailure) -> StubResponse {
        var stub = self
        stub.failure = failure
        return stub
    }
}
