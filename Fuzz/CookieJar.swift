// libFuzzer target: the cookie jar's Set-Cookie parser (SetCookieParser, CookieDate) and the jar's matching.
// Properties: parsing is total (any bytes give a cookie or nil, never a trap); a parsed cookie's domain is the
// request's host or a domain the host is in, its path starts with '/', and its name and value fit the size limit;
// (prefixes compared as bytes, as RFC 6265 does: "/\u{301}" is one Character but starts with the byte '/')
// a cookie stored from one URL is never returned for a host outside its domain or a path outside its path.
import Foundation

@testable import Ferry

private let origins = [
    "http://example.com/a/b", "https://sub.example.com/", "http://127.0.0.1:8080/x/y", "http://localhost/",
    "https://a.b.example.org/deep/path/file",
]
private let probes = [
    "http://example.com/", "https://example.com/a/b/c", "http://other.com/a", "https://sub.example.com/z",
    "http://127.0.0.2:8080/x", "http://localhost/", "https://b.example.org/deep", "https://example.org/",
]
private let now = Date(timeIntervalSince1970: 1_800_000_000)

/// libFuzzer's entry point: checks the properties above on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCookieJar(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let origin = URL(string: origins[Int(input.byte()) % origins.count])!
    let field = String(decoding: input.rest(), as: UTF8.self)
    _ = CookieDate.parse(Array(field.utf8))

    guard let cookie = SetCookieParser.cookie(from: field, url: origin, now: now, maximumSize: 4096) else { return 0 }
    let host = origin.host!.lowercased()
    let domain = cookie.domain.lowercased()
    guard host == domain || (!cookie.isHostOnly && host.hasSuffix("." + domain)) else {
        fuzzFailure("\(field.debugDescription) from \(origin) gave domain \(cookie.domain)")
    }
    guard cookie.path.utf8.first == UInt8(ascii: "/") else {
        fuzzFailure("\(field.debugDescription) gave path \(cookie.path)")
    }
    guard cookie.name.utf8.count + cookie.value.utf8.count <= 4096 else {
        fuzzFailure("\(field.debugDescription) gave a cookie over the size limit")
    }

    let jar = CookieJar(now: { now })
    for stored in jar.store(setCookieFields: [field], for: origin) {
        for probe in probes.map({ URL(string: $0)! }) where jar.cookies(for: probe).contains(stored) {
            let probeHost = probe.host!.lowercased()
            let domainMatches =
                probeHost == stored.domain.lowercased()
                || (!stored.isHostOnly && probeHost.hasSuffix("." + stored.domain.lowercased()))
            let path = probe.path.isEmpty ? "/" : probe.path
            let pathMatches =
                path == stored.path
                || (path.hasPrefix(stored.path)
                    && (stored.path.hasSuffix("/") || path.dropFirst(stored.path.count).hasPrefix("/")))
            guard domainMatches, pathMatches else {
                fuzzFailure("\(field.debugDescription) from \(origin) was sent to \(probe)")
            }
        }
    }
    return 0
}
