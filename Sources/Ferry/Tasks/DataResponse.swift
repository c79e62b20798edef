import Foundation

/// Everything known about a finished request: what was sent, what came back, the result, and what Ferry measured.
///
/// One shape for every task: a ``DataTask``'s response carries its serialized value; a download's
/// (``DownloadResponse``) is one whose value is the file at its destination; a stream's (``StreamResponse``) one whose
/// value is `Void`, the body having gone to its consumer. (Not `Response`, a name servers' frameworks already use.)
public struct DataResponse<Value: Sendable>: Sendable {
    /// The request as sent (defaults applied), or `nil` when it could not be built.
    public var request: Request?
    /// The response head, or `nil` when none arrived.
    public var response: HTTPResponse?
    /// The response body in memory, or `nil` when none arrived or it went elsewhere (a download's file, a stream's
    /// consumer); a download that failed keeps the first bytes of its error's body here.
    public var data: Data?
    /// The serialized value, or why there is none.
    public var result: Result<Value, FerryError>
    /// What Ferry counted.
    public var metrics: Metrics
    /// When each step happened.
    public var timeline: Timeline
    /// How to resume a download that failed part-way and kept its partial file; `nil` otherwise.
    public var resumeData: ResumeData?

    /// Creates a response (for tests and adapters: Ferry's tasks make their own).
    /// - Parameters:
    ///   - request: The request.
    ///   - response: The response head.
    ///   - data: The body.
    ///   - result: The result.
    ///   - metrics: The metrics.
    ///   - timeline: The timeline.
    ///   - resumeData: A failed download's resume data.
    public init(
        request: Request?,
        response: HTTPResponse?,
        data: Data? = nil,
        result: Result<Value, FerryError>,
        metrics: Metrics = Metrics(),
        timeline: Timeline = Timeline(),
        resumeData: ResumeData? = nil
    ) {
        self.request = request
        self.response = response
        self.data = data
        self.result = result
        self.metrics = metrics
        self.timeline = timeline
        self.resumeData = resumeData
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

/// A download's response: its value is the file at its destination.
public typealias DownloadResponse = DataResponse<URL>

extension DataResponse where Value == URL {
    /// The downloaded file at its destination, when the download succeeded: the same as ``value``.
    public var fileURL: URL? { value }
}

/// A stream's response, once its body ended: its value is `Void` (the body went to the consumer, or was read and
/// dropped), its result says whether the stream ended well.
public typealias StreamResponse = DataResponse<Void>
