import Foundation

/// The outcome of a download: the request, the response head, the file, the result, metrics and timeline.
public struct DownloadResponse: Sendable {
    /// The request as sent, or `nil` when it could not be built.
    public var request: Request?
    /// The final response head, or `nil` when none arrived.
    public var response: HTTPResponse?
    /// The downloaded file at its destination, when the download succeeded.
    public var fileURL: URL?
    /// The file's URL, or the error.
    public var result: Result<URL, FerryError>
    /// What Ferry counted.
    public var metrics: Metrics
    /// When each step happened.
    public var timeline: Timeline
    /// How to resume, when the download failed part-way and its partial file was kept.
    public var resumeData: ResumeData?

    /// The error, when the download failed.
    public var error: FerryError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// The HTTP status code, when a response arrived.
    public var statusCode: Int? { response?.statusCode }
}
