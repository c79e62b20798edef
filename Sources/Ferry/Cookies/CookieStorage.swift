import Foundation

/// The cookies of a ``CookieJar``, by domain: a plain value the jar mutates under its lock, and tests drive alone.
///
/// Lookups touch only the request host's own domains (`a.example.com`, `example.com`, `com`), so their cost does not
/// grow with the number of sites in the jar.
struct CookieStorage {
    /// A stored cookie and its place in time: creation order breaks ties between equal creation dates, last use
    /// decides what is evicted first.
    struct Entry {
        var cookie: Cookie
        var creationOrder: UInt64
        var lastUse: UInt64
    }

    let limits: CookieJar.Limits
    /// The cookies, by ``Cookie/domain``.
    private(set) var entries: [String: [Entry]] = [:]
    /// How many cookies there are, in all domains.
    private(set) var count = 0
    /// A counter that orders creations and uses.
    private var tick: UInt64 = 0

    init(limits: CookieJar.Limits) {
        self.limits = limits
    }

    /// Stores `cookie`, replacing the one with its name, domain and path (whose creation date it takes), then
    /// evicts what the limits require. An expired cookie only removes the one it replaces.
    /// - Parameters:
    ///   - cookie: The cookie.
    ///   - now: The current time.
    ///   - fromInsecureOrigin: Whether a response over plain HTTP set it: it may then not replace or shadow a
    ///     `Secure` cookie (RFC 6265bis §5.7, "leave secure cookies alone").
    /// - Returns: Whether the cookie was stored.
    mutating func store(_ cookie: Cookie, now: Date, fromInsecureOrigin: Bool = false) -> Bool {
        var cookie = cookie
        if fromInsecureOrigin, !cookie.isSecure, shadowsSecureCookie(cookie) { return false }
        // Taken out of the dictionary while it changes, so the array is not copied.
        var list = entries.removeValue(forKey: cookie.domain) ?? []
        insert(&cookie, into: &list, now: now)
        if !list.isEmpty { entries[cookie.domain] = list }
        if count > limits.maximumCookieCount { evictGlobally(now: now) }
        return entries[cookie.domain]?.contains { $0.cookie == cookie } == true
    }

    /// Puts `cookie` into its domain's `list` (replacing, or removing when it has expired), then applies the
    /// per-domain limit.
    private mutating func insert(_ cookie: inout Cookie, into list: inout [Entry], now: Date) {
        let existing = list.firstIndex { $0.cookie.isSameCookie(as: cookie) }
        if cookie.isExpired(at: now) {
            if let existing {
                list.remove(at: existing)
                count -= 1
            }
            return
        }
        tick += 1
        if let existing {
            cookie.creationDate = list[existing].cookie.creationDate
            list[existing].cookie = cookie
            list[existing].lastUse = tick
        } else {
            list.append(Entry(cookie: cookie, creationOrder: tick, lastUse: tick))
            count += 1
        }
        guard list.count > limits.maximumCookiesPerDomain else { return }
        removeExpired(from: &list, now: now)
        while list.count > limits.maximumCookiesPerDomain, let oldest = Self.leastRecentlyUsed(in: list) {
            list.remove(at: oldest)
            count -= 1
        }
    }

    /// The cookies to send to `origin`, in the order of RFC 6265 §5.4 (longer paths first, then older ones first),
    /// marked as used. Expired cookies of the host's domains are removed on the way.
    mutating func cookies(for origin: CookieOrigin, now: Date) -> [Cookie] {
        guard count > 0 else { return [] }
        var matched: [Entry] = []
        for domain in origin.candidateDomains {
            guard var list = entries.removeValue(forKey: domain) else { continue }
            removeExpired(from: &list, now: now)
            for index in list.indices where Self.matches(list[index].cookie, origin) {
                tick += 1
                list[index].lastUse = tick
                matched.append(list[index])
            }
            if !list.isEmpty { entries[domain] = list }
        }
        matched.sort { a, b in
            let lengths = (a.cookie.path.utf8.count, b.cookie.path.utf8.count)
            if lengths.0 != lengths.1 { return lengths.0 > lengths.1 }
            if a.cookie.creationDate != b.cookie.creationDate { return a.cookie.creationDate < b.cookie.creationDate }
            return a.creationOrder < b.creationOrder
        }
        return matched.map(\.cookie)
    }

    /// Every cookie that has not expired, oldest first.
    func allCookies(now: Date) -> [Cookie] {
        entries.values.joined().filter { !$0.cookie.isExpired(at: now) }
            .sorted { ($0.cookie.creationDate, $0.creationOrder) < ($1.cookie.creationDate, $1.creationOrder) }
            .map(\.cookie)
    }

    /// Removes the cookie with `cookie`'s name, domain and path.
    /// - Returns: Whether there was one.
    mutating func remove(_ cookie: Cookie) -> Bool {
        guard var list = entries[cookie.domain],
            let index = list.firstIndex(where: { $0.cookie.isSameCookie(as: cookie) })
        else { return false }
        remove(at: index, in: &list, domain: cookie.domain)
        return true
    }

    /// Removes every cookie.
    mutating func removeAll() {
        entries = [:]
        count = 0
    }

    /// Whether a cookie with `cookie`'s name is sent only over secure connections to a domain and path that overlap
    /// `cookie`'s.
    private func shadowsSecureCookie(_ cookie: Cookie) -> Bool {
        guard count > 0 else { return false }
        return entries.values.joined().contains { entry in
            let stored = entry.cookie
            guard stored.isSecure, stored.name == cookie.name else { return false }
            let domainsOverlap =
                Self.isDomain(stored.domain, within: cookie.domain)
                || Self.isDomain(cookie.domain, within: stored.domain)
            return domainsOverlap && Self.isPath(cookie.path, within: stored.path)
        }
    }

    private static func matches(_ cookie: Cookie, _ origin: CookieOrigin) -> Bool {
        if cookie.isHostOnly ? cookie.domain != origin.host : !origin.domainMatches(cookie.domain) { return false }
        return origin.pathMatches(cookie.path) && (!cookie.isSecure || origin.isSecure)
    }

    /// Whether `domain` is `parent` or one of its subdomains.
    private static func isDomain(_ domain: String, within parent: String) -> Bool {
        let domain = domain.utf8, parent = parent.utf8
        if domain.elementsEqual(parent) { return true }
        guard domain.count > parent.count, domain.suffix(parent.count).elementsEqual(parent) else { return false }
        return domain.dropLast(parent.count).last == UInt8(ascii: ".")
    }

    /// Whether `path` is `parent` or below it.
    private static func isPath(_ path: String, within parent: String) -> Bool {
        let path = path.utf8, parent = parent.utf8
        guard path.starts(with: parent) else { return false }
        return path.count == parent.count || parent.last == UInt8(ascii: "/")
            || path.dropFirst(parent.count).first == UInt8(ascii: "/")
    }

    private mutating func remove(at index: Int, in list: inout [Entry], domain: String) {
        list.remove(at: index)
        count -= 1
        entries[domain] = list.isEmpty ? nil : list
    }

    private mutating func removeExpired(from list: inout [Entry], now: Date) {
        guard list.contains(where: { $0.cookie.isExpired(at: now) }) else { return }
        let before = list.count
        list.removeAll { $0.cookie.isExpired(at: now) }
        count -= before - list.count
    }

    /// Brings the jar under its total limit: expired cookies first, then the least recently used.
    private mutating func evictGlobally(now: Date) {
        let withExpired = entries.compactMap { domain, list in
            list.contains { $0.cookie.isExpired(at: now) } ? domain : nil
        }
        for domain in withExpired {
            guard var list = entries.removeValue(forKey: domain) else { continue }
            removeExpired(from: &list, now: now)
            if !list.isEmpty { entries[domain] = list }
        }
        while count > limits.maximumCookieCount {
            var oldest: (domain: String, index: Int, lastUse: UInt64)?
            for (domain, list) in entries {
                guard let index = Self.leastRecentlyUsed(in: list) else { continue }
                if let current = oldest, current.lastUse <= list[index].lastUse { continue }
                oldest = (domain, index, list[index].lastUse)
            }
            guard let oldest, var list = entries[oldest.domain] else { return }
            remove(at: oldest.index, in: &list, domain: oldest.domain)
        }
    }

    private static func leastRecentlyUsed(in list: [Entry]) -> Int? {
        list.indices.min { list[$0].lastUse < list[$1].lastUse }
    }
}
