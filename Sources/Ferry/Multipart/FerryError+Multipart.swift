import Foundation

extension FerryError {
    /// An ``Reason/invalidRequest(_:)`` error about a multipart form's file part.
    static func multipartFile(_ url: URL, _ problem: String, underlyingError: (any Error)? = nil) -> FerryError {
        FerryError(
            .invalidRequest("the file \(url.path) of a multipart form \(problem)"), underlyingError: underlyingError)
    }

    /// A file part no longer has the size it had when the form was measured.
    static func multipartFileChangedSize(_ url: URL, _ expectedSize: Int64) -> FerryError {
        .multipartFile(url, "changed size while it was being encoded (expected \(expectedSize) bytes)")
    }

    /// The encoded body could not be written to `url`.
    static func multipartBodyUnwritable(_ url: URL, _ underlyingError: (any Error)?) -> FerryError {
        FerryError(
            .invalidRequest("the multipart body could not be written to \(url.path)"), underlyingError: underlyingError)
    }
}
