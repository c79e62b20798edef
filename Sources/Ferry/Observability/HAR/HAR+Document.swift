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

    /// No cache information: Ferry has no cache.
    struct Cache: Encodable {}

    struct Timings: Encodable {
        var blocked: Double
        var dns = -1.0
        var connect = -1.0
        var send = 0.0
        var wait: Double
        var receive: Double
        var ssl = -1.0
    }
}
