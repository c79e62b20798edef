import Foundation

/// Which response header fields a cache keeps and which a later response may replace (RFC 9111 §3.1, §3.2).
enum StoredHeaders {
    /// Fields never stored (§3.1): hop-by-hop fields a proxy removes before forwarding (RFC 9110 §7.6.1), and the
    /// fields specific to the proxy a cache goes through. Lowercased.
    static let notStored: Set<String> = [
        "connection", "proxy-connection", "keep-alive", "te", "transfer-encoding", "upgrade",
        "proxy-authenticate", "proxy-authentication-info", "proxy-authorization",
    ]

    /// Fields a 304 or a `HEAD` response never replaces in a stored head (§3.2), besides ``notStored``: the ones
    /// that describe the stored body, which the new response did not carry. `Content-Length` is named by §3.2;
    /// `Content-Encoding` and `Content-Range` are this cache's choice ("header fields that the cache's stored
    /// response depends upon"). Lowercased.
    static let notUpdated: Set<String> = ["content-length", "content-encoding", "content-range"]

    /// `headers` without the fields a cache must not store (§3.1): ``notStored`` and every field the `Connection`
    /// field names.
    /// - Parameter headers: A response's header fields.
    /// - Returns: The fields to store, in order.
    static func forStorage(_ headers: HTTPHeaders) -> HTTPHeaders {
        let excluded = notStored.union(connectionOptions(headers))
        return HTTPHeaders(headers.filter { !excluded.contains($0.name.lowercased()) })
    }

    /// The stored header fields updated with those of a newer response (§3.2): each field the new response has
    /// replaces every stored field of that name, except ``notStored``, ``notUpdated`` and the fields the new
    /// response's `Connection` names. Fields the new response lacks stay as they were.
    /// - Parameters:
    ///   - stored: The stored response's header fields.
    ///   - newer: The header fields of the 304 or `HEAD` response.
    /// - Returns: The updated fields.
    static func updating(_ stored: HTTPHeaders, with newer: HTTPHeaders) -> HTTPHeaders {
        let excluded = notStored.union(notUpdated).union(connectionOptions(newer))
        var updated = stored
        var replaced: Set<String> = []
        for field in newer where !excluded.contains(field.name.lowercased()) {
            let name = field.name.lowercased()
            // The first field of a name replaces the stored ones; the next ones of that name are added at the end.
            if replaced.insert(name).inserted {
                updated.update(name: field.name, value: field.value)
            } else {
                updated.add(name: field.name, value: field.value)
            }
        }
        return updated
    }

    /// The lowercased field names a `Connection` field lists (RFC 9110 §7.6.1).
    private static func connectionOptions(_ headers: HTTPHeaders) -> Set<String> {
        Set(headers.listElements(for: "Connection").map { $0.lowercased() })
    }
}
