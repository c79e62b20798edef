import Foundation

/// A form checked and measured for encoding: each part's head, content and size, and the total length.
///
/// Making a layout reads file sizes but not file contents; writing it streams the contents and fails if a file no
/// longer has the size it was measured at.
struct MultipartLayout {
    /// One part ready to write.
    struct Segment {
        var name: String
        var head: Data
        var content: MultipartFormData.Part.Content
        var size: Int64
    }

    var segments: [Segment] = []
    var boundary: String
    var closing: Data
    /// The exact number of bytes ``write(into:)`` produces.
    var length: Int64

    private static let lineBreak = Data("\r\n".utf8)

    /// Checks and measures `form`.
    /// - Throws: ``FerryError`` with ``FerryError/Reason/invalidRequest(_:)`` when the boundary or a media type is
    ///   invalid, or a file's size can't be read.
    init(_ form: MultipartFormData) throws(FerryError) {
        guard MultipartFormData.isValidBoundary(form.boundary) else {
            throw FerryError(
                .invalidRequest(
                    "the multipart boundary \(form.boundary.debugDescription) is not 1 to 70 RFC 2046 boundary characters"
                ))
        }
        boundary = form.boundary
        closing = Data("--\(form.boundary)--\r\n".utf8)
        length = Int64(closing.count)
        for part in form.parts {
            if let mimeType = part.mimeType, mimeType.unicodeScalars.contains(where: Self.isForbiddenInHeader) {
                throw FerryError(
                    .invalidRequest(
                        "the MIME type of multipart part \(part.name.debugDescription) contains CR, LF or NUL"))
            }
            let head = part.head(boundary: form.boundary)
            let size: Int64
            switch part.content {
            case .data(let data):
                size = Int64(data.count)
                var scanner = MultipartBoundaryScanner(boundary: form.boundary, partName: part.name)
                try scanner.scan(data)
            case .file(let url):
                size = try Self.fileSize(at: url)
            }
            segments.append(Segment(name: part.name, head: head, content: part.content, size: size))
            length += Int64(head.count) + size + Int64(Self.lineBreak.count)
        }
    }

    /// Writes the whole body into `sink`, copying files in chunks.
    /// - Throws: ``FerryError`` when a file can't be read, has changed size or holds the boundary, or the sink
    ///   fails.
    func write<Sink: MultipartSink>(into sink: inout Sink) throws(FerryError) {
        for segment in segments {
            try sink.write(segment.head)
            switch segment.content {
            case .data(let data):
                try sink.write(data)
            case .file(let url):
                var scanner = MultipartBoundaryScanner(boundary: boundary, partName: segment.name)
                try sink.copyFile(at: url, expectedSize: segment.size, scanning: &scanner)
            }
            try sink.write(Self.lineBreak)
        }
        try sink.write(closing)
    }

    /// Whether `scalar` is CR, LF or NUL, which would break a header line.
    private static func isForbiddenInHeader(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\r" || scalar == "\n" || scalar == "\0"
    }

    /// The size of the regular file at `url`, following symbolic links.
    private static func fileSize(at url: URL) throws(FerryError) -> Int64 {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)
        } catch {
            throw .multipartFile(url, "could not be read", underlyingError: error)
        }
        let type = attributes[.type].flatMap { value in
            (value as? FileAttributeType) ?? (value as? String).map { FileAttributeType(rawValue: $0) }
        }
        guard type == .typeRegular else { throw .multipartFile(url, "is not a regular file") }
        guard let size = (attributes[.size] as? NSNumber)?.int64Value else {
            throw .multipartFile(url, "has no readable size")
        }
        return size
    }
}
