import Foundation

/// What it takes to resume a download that failed or was cancelled part-way: the request, the partial file and
/// the validator that names the version of the resource it holds.
///
/// Pass it to ``Session/download(resuming:to:options:)``: Ferry asks for the rest with `Range` and `If-Range`,
/// appends a `206` answer to the partial file, and starts over cleanly when the server sends the whole resource
/// again (`200`: it ignored the range, or the resource changed). The partial file lives in the temporary
/// directory until the resumed download consumes it or you call ``discard()``.
public struct ResumeData: Sendable {
    /// The request that was sent.
    public var request: Request
    /// The partial file.
    public var partialFile: URL
    /// The bytes in the partial file.
    public var byteCount: Int64
    /// The response's `ETag`, when it had one.
    public var entityTag: String?
    /// The response's `Last-Modified`, when it had one.
    public var lastModified: String?

    /// Creates resume data, for instance from values you stored to resume after a restart.
    /// - Parameters:
    ///   - request: The request to send again.
    ///   - partialFile: The partial file; the resumed download appends to it and moves it into place.
    ///   - byteCount: The bytes in the partial file that are good.
    ///   - entityTag: The `ETag` of the version the partial file holds.
    ///   - lastModified: Its `Last-Modified`.
    public init(request: Request, partialFile: URL, byteCount: Int64, entityTag: String?, lastModified: String?) {
        self.request = request
        self.partialFile = partialFile
        self.byteCount = byteCount
        self.entityTag = entityTag
        self.lastModified = lastModified
    }

    /// The validator `If-Range` carries: the entity tag when it is strong, else the modification date.
    var ifRange: String? {
        if let entityTag, !entityTag.hasPrefix("W/") { return entityTag }
        return lastModified
    }

    /// Deletes the partial file, when you decide not to resume.
    public func discard() {
        try? FileManager.default.removeItem(at: partialFile)
    }
}
