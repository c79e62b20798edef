import Foundation

/// One byte range of a complete stored response, answered from the cache as a `206 Partial Content` (RFC 9110
/// §14.2, §15.3.7), as a server would answer it: a cache may (RFC 9111 §3.4 and §4.3.2 speak of caches that
/// implement ranges).
///
/// Only what can be answered exactly is: a `GET` with one range of bytes (`bytes=0-99`, `bytes=100-`, `bytes=-50`)
/// that the stored body satisfies, against a `200` whose length is known. Several ranges, other units, a range the
/// body does not satisfy, and anything malformed go to the server, which owes the answer (`416`, a multipart body,
/// or a whole `200`). `If-Range` (§13.1.5) is judged against the stored validators: when it does not match, the
/// whole stored response answers, as the server would answer.
enum StoredRange {
    /// What the cache does with a request's `Range`.
    enum Decision: Equatable {
        /// No range (or an `If-Range` that does not match): the whole stored response answers.
        case whole
        /// The bytes at these offsets answer, as a 206.
        case part(ClosedRange<Int>)
        /// The server must answer the range.
        case send
    }

    /// Decides how a stored `200` of `length` bytes answers `request`.
    /// - Parameters:
    ///   - request: The request, with its `Range` and `If-Range`.
    ///   - stored: The stored response's head.
    ///   - length: The stored body's length in bytes.
    static func decide(_ request: Request, stored: HTTPResponse, length: Int) -> Decision {
        let headers = request.headers
        guard request.method == .get, let range = headers["Range"] else { return .whole }
        guard stored.statusCode == 200 else { return .send }
        if let ifRange = headers["If-Range"], !matches(ifRange: ifRange, stored: stored.headers) {
            return .whole
        }
        guard let offsets = offsets(of: range, length: length) else { return .send }
        return .part(offsets)
    }

    /// The head of the 206: the stored fields, with `Content-Range` and the part's `Content-Length`.
    static func head(of stored: HTTPResponse, part: ClosedRange<Int>, length: Int) -> HTTPResponse {
        var head = stored
        head.statusCode = 206
        head.headers.update(name: "Content-Range", value: "bytes \(part.lowerBound)-\(part.upperBound)/\(length)")
        head.headers.update(name: "Content-Length", value: String(part.count))
        return head
    }

    /// The offsets one `bytes` range names in a body of `length` bytes, or `nil` when it is not one such range the
    /// body satisfies.
    static func offsets(of range: String, length: Int) -> ClosedRange<Int>? {
        let value = range.trimmingOWS
        guard value.count > 6, value.prefix(6).lowercased() == "bytes=", length > 0 else { return nil }
        let spec = value.dropFirst(6).trimmingOWS
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash].trimmingOWS
        let last = spec[spec.index(after: dash)...].trimmingOWS
        func number(_ text: String) -> Int? {
            guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return Int(text)
        }
        if first.isEmpty {
            // A suffix: the last N bytes.
            guard let count = number(last), count > 0 else { return nil }
            return max(0, length - count)...(length - 1)
        }
        guard let start = number(first), start < length else { return nil }
        if last.isEmpty { return start...(length - 1) }
        guard let end = number(last), end >= start else { return nil }
        return start...min(end, length - 1)
    }

    /// Whether `If-Range` names the stored representation (§13.1.5): a strong entity tag equal to the stored
    /// strong `ETag`, or a date equal to the stored `Last-Modified`.
    private static func matches(ifRange: String, stored: HTTPHeaders) -> Bool {
        let value = ifRange.trimmingOWS
        if value.hasPrefix("\"") || value.hasPrefix("W/") {
            guard let condition = EntityTag(value), let tag = EntityTag(headers: stored) else { return false }
            return condition.matchesStrongly(tag)
        }
        guard let date = HTTPDate.parse(value), let lastModified = stored["Last-Modified"].flatMap(HTTPDate.parse)
        else { return false }
        return date == lastModified
    }
}
