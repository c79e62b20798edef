import Foundation

extension RequestBody {
    /// A `multipart/form-data` form. Forms larger than `memoryThreshold` are encoded to a temporary file, streamed
    /// from disk, and deleted when the request is done.
    /// - Parameters:
    ///   - form: The form.
    ///   - memoryThreshold: The largest encoding held in memory; 10 MiB by default.
    /// - Returns: The body with the form's `Content-Type` (and boundary). An encoding failure (an unreadable file
    ///   part) fails the request with its ``FerryError``.
    public static func multipart(_ form: MultipartFormData, memoryThreshold: Int64 = 10 << 20) -> RequestBody {
        do {
            switch try form.encoded(memoryThreshold: memoryThreshold) {
            case .data(let data):
                return RequestBody(.content(.data(data)), contentType: form.contentType)
            case .file(let url, _):
                return RequestBody(
                    .content(.file(url)), contentType: form.contentType, temporaryFile: TemporaryFile(url))
            }
        } catch {
            return RequestBody(.failure(error), contentType: form.contentType)
        }
    }
}
