/// How a download treats its destination. Its validation is the task's: ``DownloadTask/validate(statusCode:)`` and
/// the other `validate…` methods, as on every task.
public struct DownloadOptions: Sendable {
    /// Whether missing directories on the way to the destination are created; `true` by default.
    public var createsIntermediateDirectories: Bool
    /// Whether an existing file at the destination is replaced; `false` by default, and the download then fails
    /// with ``FerryError/Reason/destinationExists(_:)`` without touching it.
    public var replacesExistingFile: Bool
    /// Whether a download that fails part-way keeps its partial file for ``ResumeData``; `true` by default. It is
    /// kept only when the server named the version it sent (`ETag` or `Last-Modified`), so that a resumed download
    /// can never splice two versions together.
    public var keepsPartialFileForResume: Bool

    /// Creates options.
    /// - Parameters:
    ///   - createsIntermediateDirectories: Whether to create missing directories.
    ///   - replacesExistingFile: Whether to replace an existing file.
    ///   - keepsPartialFileForResume: Whether a failed download keeps its partial file for resuming.
    public init(
        createsIntermediateDirectories: Bool = true, replacesExistingFile: Bool = false,
        keepsPartialFileForResume: Bool = true
    ) {
        self.createsIntermediateDirectories = createsIntermediateDirectories
        self.replacesExistingFile = replacesExistingFile
        self.keepsPartialFileForResume = keepsPartialFileForResume
    }
}
