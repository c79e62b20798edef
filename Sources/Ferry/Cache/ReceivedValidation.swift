import Foundation

/// A request's own conditions, judged by the cache against the stored response that answers it (RFC 9111 §4.3.2):
/// a client that sends `If-None-Match` or `If-Modified-Since` asks whether what it holds is still current, and a
/// stored response can say so without contacting the server.
enum ReceivedValidation {
    /// The fields of the stored response a `304` carries (RFC 9110 §15.4.5: those a `200` would have had), and
    /// `Last-Modified` when there is no `ETag` (to guide the client's cache). Representation metadata such as
    /// `Content-Type` and `Content-Length` stays out.
    static let notModifiedFields = ["Cache-Control", "Content-Location", "Date", "ETag", "Expires", "Vary"]

    /// The `304 Not Modified` head that answers `request` from `stored`, when the request's own condition finds the
    /// stored response unchanged.
    ///
    /// `If-None-Match` is judged first, by weak comparison (§13.1.2; `*` matches any stored response); without it,
    /// `If-Modified-Since` against the stored `Last-Modified`, or its `Date` (the time received when it has none), as
    /// §4.3.2 says. `If-Match` and `If-Unmodified-Since` are for the origin and are not judged here.
    /// - Parameters:
    ///   - request: The request, with its own conditions.
    ///   - stored: The stored response the cache would answer with (fresh, or allowed stale).
    ///   - age: The `Age` the answer carries.
    /// - Returns: The 304's head; `nil` to answer with the stored response itself (no condition, or one that does
    ///   not hold, or a stored response other than a `200`).
    static func notModified(for request: Request, stored: StoredResponse, age: String?) -> HTTPResponse? {
        let conditions = request.headers
        let storedHeaders = stored.response.headers
        guard stored.response.statusCode == 200 else { return nil }
        if let ifNoneMatch = conditions.values(for: "If-None-Match").nonEmpty {
            let storedTag = EntityTag(headers: storedHeaders)
            let unchanged = ifNoneMatch.flatMap(entityTags(in:)).contains { element in
                switch element {
                case .any: true
                case .tag(let tag): storedTag.map(tag.matchesWeakly) ?? false
                }
            }
            guard unchanged else { return nil }
        } else if let since = conditions["If-Modified-Since"].flatMap(HTTPDate.parse) {
            let modified = storedHeaders["Last-Modified"].flatMap(HTTPDate.parse) ?? stored.dateValue
            guard modified <= since else { return nil }
        } else {
            return nil
        }
        var headers = HTTPHeaders()
        var fields = notModifiedFields
        if !storedHeaders.contains("ETag") { fields.append("Last-Modified") }
        for field in storedHeaders
        where fields.contains(where: { $0.caseInsensitiveCompare(field.name) == .orderedSame }) {
            headers.add(name: field.name, value: field.value)
        }
        if let age { headers.update(name: "Age", value: age) }
        return HTTPResponse(
            statusCode: 304, headers: headers, url: stored.response.url, httpVersion: stored.response.httpVersion)
    }

    /// An element of an `If-None-Match` list.
    enum Element: Equatable {
        case any
        case tag(EntityTag)
    }

    /// The elements of one `If-None-Match` line (RFC 9110 §13.1.2): `*`, or entity tags separated by commas, which
    /// may hold commas inside their quotes. A tag without quotes is read up to the next comma (tolerated, as
    /// ``EntityTag`` tolerates it in `ETag`).
    static func entityTags(in value: String) -> [Element] {
        var elements: [Element] = []
        var rest = Substring(value)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            guard !rest.isEmpty else { return elements }
            var end = rest.startIndex
            let weakPrefix = rest.hasPrefix("W/") || rest.hasPrefix("w/")
            let quote = weakPrefix ? rest.index(end, offsetBy: 2) : end
            if quote < rest.endIndex, rest[quote] == "\"",
                let closing = rest[rest.index(after: quote)...].firstIndex(of: "\"")
            {
                end = rest.index(after: closing)
            } else {
                end = rest.firstIndex(of: ",") ?? rest.endIndex
            }
            let element = rest[..<end]
            if element.trimmingOWS == "*" {
                elements.append(.any)
            } else if let tag = EntityTag(String(element)) {
                elements.append(.tag(tag))
            }
            rest = rest[end...]
        }
    }
}

extension Array {
    /// The array, or `nil` when it is empty.
    fileprivate var nonEmpty: Self? { isEmpty ? nil : self }
}
