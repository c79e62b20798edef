import Foundation

/// An encoded ``MultipartFormData`` body: bytes in memory, or a temporary file for a large body.
public enum EncodedMultipart: Sendable {
    /// The whole body in memory.
    case data(Data)
    /// The body in a temporary file of `length` bytes. The caller owns the file and deletes it when done.
    case file(URL, length: Int64)
}
