import Foundation

/// The HAR 1.2 document's shape: the required fields, and the optional ones Ferry knows.
extension HAR {
    struct Document: Encodable {
        var log: Log
    }

    struct Log: Encodable {
        var version = "1.2"
        var creator = Creator()
        var entries: [Entry]
    }

    struct Creator: Encodable {
        var name = "Ferry"
        var version = Session.version
    }

    struct Entry: Encodable {
        var startedDateTime: String
        var time: Double
        var request: EntryRequest
        var response: EntryResponse
        var cache = Cache()
        var timings: Timings
        var comment: String?
    }

    struct EntryRequest: Encodable {
        var method: String
        var url: String
        var httpVersion: String
        var cookies: [Cookie]
        var headers: [NameValue]
        var queryString: [NameValue]
        var headersSize = -1
        var bodySize: Int64
    }

    struct EntryResponse: Encodable {
        var status: Int
        var statusText: String
        var httpVersion: String
        var cookies: [Cookie]
        var headers: [NameValue]
        var content: Content
        var redirectURL: String
        var headersSize = -1
        var bodySize: Int64
    }

    struct NameValue: Encodable {
        var name: String
        var value: String
    }

    struct Cookie: Encodable {
        var name: String
        var value: String
        var path: String?
        var domain: String?
        var httpOnly: Bool?
        var secure: Bool?
    }

    struct Content: Encodable {
        var size: Int64
        var mimeType: String
        var text: String?
        var encoding: String?
    }

    /// What the session's cache did for an entry: empty (`{}`) without a cache and on every entry but the final
    /// one; on the final entry, `comment` names the ``CacheStatus``, and `afterRequest` describes the stored response
    /// that answered (a hit, a stale hit, a revalidation).
    struct Cache: Encodable {
        var afterRequest: CacheEntry?
        var comment: String?
    }

    /// A stored response's state: `lastAccess`, the moment the cache decided; `eTag`, its `ETag` (empty without
    /// one). HAR's `hitCount` and `expires` are left out: Ferry's cache counts no hits, and a stored response's
    /// expiry depends on the request that asks.
    struct CacheEntry: Encodable {
        var lastAccess: String
        var eTag: String
    }

    struct Timings: Encodable {
        /// The wait for a slot under the session's limits; -1 for the cache's answer, which waits for none.
        var blocked: Double
        var dns = -1.0
        var connect = -1.0
        var send = 0.0
        var wait: Double
        var receive: Double
        var ssl = -1.0
    }
}
