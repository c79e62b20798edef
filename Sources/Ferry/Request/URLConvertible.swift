import Foundation

/// A value that names a URL: a `String`, a `URL` or `URLComponents`.
public protocol URLConvertible: Sendable {
    /// Returns the absolute URL this value names.
    /// - Parameter baseURL: The URL a relative value is appended to.
    /// - Returns: An absolute `http` or `https` URL.
    /// - Throws: ``FerryError`` with reason ``FerryError/Reason/invalidURL(_:)``.
    func url(relativeTo baseURL: URL?) throws(FerryError) -> URL
}

extension String: URLConvertible {
    /// Parses the string; a string without a scheme is appended to `baseURL`.
    /// - Parameter baseURL: The URL a relative string is appended to.
    /// - Returns: An absolute `http` or `https` URL.
    /// - Throws: ``FerryError`` with reason ``FerryError/Reason/invalidURL(_:)``.
    public func url(relativeTo baseURL: URL?) throws(FerryError) -> URL {
        guard let url = URL(string: self) else {
            throw FerryError(.invalidURL("\"\(self)\" is not a URL"))
        }
        return try url.url(relativeTo: baseURL)
    }
}

extension URL: URLConvertible {
    /// Returns this URL when it is absolute; a URL without a scheme is appended to `baseURL`.
    ///
    /// Appending keeps the base's path: `users/1` (or `/users/1`) against `https://api.example.com/v2` gives
    /// `https://api.example.com/v2/users/1`.
    /// - Parameter baseURL: The URL a relative URL is appended to.
    /// - Returns: An absolute `http` or `https` URL.
    /// - Throws: ``FerryError`` with reason ``FerryError/Reason/invalidURL(_:)``.
    public func url(relativeTo baseURL: URL?) throws(FerryError) -> URL {
        // The scheme read once and compared byte by byte, the host read without percent-decoding it: this runs on
        // every request.
        guard let scheme else {
            guard let baseURL else {
                throw FerryError(.invalidURL("\"\(relativeString)\" is relative and the session has no base URL"))
            }
            return try baseURL.appendingRelativeReference(relativeString).url(relativeTo: nil)
        }
        guard Self.isHTTPScheme(scheme) || Self.isUnixSocketScheme(scheme) else {
            throw FerryError(.invalidURL("scheme of \"\(absoluteString)\" is not http or https"))
        }
        guard let host = host(percentEncoded: true), !host.isEmpty else {
            throw FerryError(.invalidURL("\"\(absoluteString)\" has no host"))
        }
        return absoluteURL
    }

    /// Whether `scheme` is `http` or `https`, in any case (the common lower-case spelling compared first, without a
    /// lower-cased copy).
    private static func isHTTPScheme(_ scheme: String) -> Bool {
        if scheme == "http" || scheme == "https" { return true }
        let lowered = scheme.lowercased()
        return lowered == "http" || lowered == "https"
    }

    /// Whether `scheme` is `http+unix` or `https+unix`: HTTP over a Unix domain socket, whose percent-encoded path
    /// is the URL's host (`http+unix://%2Fvar%2Frun%2Fdocker.sock/info`). `AsyncHTTPClientTransport` reaches such
    /// URLs; ``URLSessionTransport`` refuses them.
    static func isUnixSocketScheme(_ scheme: String) -> Bool {
        // Both transports ask on every request: the common schemes answer without a lower-cased copy.
        if scheme == "http" || scheme == "https" { return false }
        let lowered = scheme.lowercased()
        return lowered == "http+unix" || lowered == "https+unix"
    }

    private func appendingRelativeReference(_ reference: String) throws(FerryError) -> URL {
        var base = absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        var path = Substring(reference)
        while path.hasPrefix("/") { path.removeFirst() }
        guard let url = URL(string: path.isEmpty ? base : base + "/" + path) else {
            throw FerryError(.invalidURL("\"\(reference)\" cannot be appended to \(absoluteString)"))
        }
        return url
    }
}

extension URLComponents: URLConvertible {
    /// Returns the URL of these components, resolved like a `URL`.
    /// - Parameter baseURL: The URL a relative value is appended to.
    /// - Returns: An absolute `http` or `https` URL.
    /// - Throws: ``FerryError`` with reason ``FerryError/Reason/invalidURL(_:)``.
    public func url(relativeTo baseURL: URL?) throws(FerryError) -> URL {
        guard let url else { throw FerryError(.invalidURL("the components do not form a URL")) }
        return try url.url(relativeTo: baseURL)
    }
}
