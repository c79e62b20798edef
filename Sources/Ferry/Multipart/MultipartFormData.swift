import Foundation

/// A `multipart/form-data` body (RFC 7578): an ordered list of parts separated by a boundary.
///
/// Add text fields, bytes and files with the `append` methods, then turn the form into a body with
/// ``encoded(memoryThreshold:)`` or ``writeEncoded(to:)``. Files are read only when the form is encoded, and a
/// body larger than the memory threshold is streamed to a temporary file in fixed-size chunks, so a form never
/// holds its files whole in memory.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Holiday", name: "title")
/// form.append(fileAt: videoURL, name: "video")
/// let body = try form.encoded()
/// ```
public struct MultipartFormData: Sendable {
    /// The delimiter between parts, without the leading `--`.
    public let boundary: String

    /// The parts, in the order they were appended.
    var parts: [Part] = []

    /// Creates an empty form.
    /// - Parameter boundary: The delimiter between parts: 1 to 70 of RFC 2046's boundary characters (letters,
    ///   digits and `'()+_,-./:=?` or a space, but not ending in a space), which must not occur in any part's
    ///   content. A random `ferry-` followed by 32 hex digits by default. An invalid boundary is reported when the
    ///   form is encoded.
    public init(boundary: String = MultipartFormData.makeRandomBoundary()) {
        self.boundary = boundary
    }

    /// The `Content-Type` of the encoded body: `multipart/form-data; boundary=…`, the boundary quoted when it holds
    /// characters a bare header parameter cannot.
    public var contentType: String {
        let parameter = Self.needsQuoting(boundary) ? "\"\(boundary)\"" : boundary
        return "multipart/form-data; boundary=\(parameter)"
    }

    /// Appends a text field, encoded as UTF-8, with no `Content-Type`.
    /// - Parameters:
    ///   - value: The field's value.
    ///   - name: The field's name.
    public mutating func append(_ value: String, name: String) {
        parts.append(Part(name: name, fileName: nil, mimeType: nil, content: .data(Data(value.utf8))))
    }

    /// Appends bytes held in memory.
    /// - Parameters:
    ///   - data: The bytes.
    ///   - name: The field's name.
    ///   - fileName: The file name to report, which makes the part a file upload; none by default.
    ///   - mimeType: The part's `Content-Type`. When omitted, a part with a file name gets one inferred from the
    ///     name's extension and a part without one gets no `Content-Type`.
    public mutating func append(_ data: Data, name: String, fileName: String? = nil, mimeType: String? = nil) {
        let type = mimeType ?? fileName.map { Self.mimeType(forPathExtension: ($0 as NSString).pathExtension) }
        parts.append(Part(name: name, fileName: fileName, mimeType: type, content: .data(data)))
    }

    /// Appends the contents of a file, which is read only when the form is encoded.
    /// - Parameters:
    ///   - url: The file's URL.
    ///   - name: The field's name.
    ///   - fileName: The file name to report; the URL's last path component by default.
    ///   - mimeType: The part's `Content-Type`; inferred from the URL's extension by default, and
    ///     `application/octet-stream` when the extension is unknown.
    public mutating func append(fileAt url: URL, name: String, fileName: String? = nil, mimeType: String? = nil) {
        let type = mimeType ?? Self.mimeType(forPathExtension: url.pathExtension)
        parts.append(
            Part(name: name, fileName: fileName ?? url.lastPathComponent, mimeType: type, content: .file(url)))
    }
}
