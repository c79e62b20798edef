import Foundation

/// An HTTP cache as RFC 9111 describes it, the same on every transport: set ``Session/Configuration/cache`` to use
/// one.
///
/// Off by default. With a cache, a `GET` whose body is read into memory (``DataTask``) or written to a file
/// (``DownloadTask``) is answered from the cache when a stored response may answer it, revalidated with the server
/// (`If-None-Match`, `If-Modified-Since`) when it must be, and stored when the response may be. A `HEAD` response
/// freshens the stored `GET` response (§4.3.5). A successful `POST`, `PUT`, `PATCH` or `DELETE` (a stream's too) drops
/// what is stored for its target and its `Location` and `Content-Location` (§4.4). Streams (``StreamTask``) and
/// resumed downloads go to the server without the cache. ``Metrics/cacheStatus`` says where each response came from;
/// ``Request/cachePolicy`` changes how one request uses the cache.
///
/// Where the RFC leaves a choice, what Ferry chose is written in `docs/cache-decisions.md`.
public final class HTTPCache: Sendable {
    /// Whose responses it keeps: an app's (``CacheMode/private``) or many users' (``CacheMode/shared``).
    public let mode: CacheMode
    /// Where it keeps them.
    public let storage: any CacheStorage
    /// Where it reads the time, to judge ages: the system's clock, or one a test advances by hand.
    public let now: @Sendable () -> Date
    /// The keys being revalidated in the background (`stale-while-revalidate`): one request per key at a time.
    private let revalidatingInBackground = Locked(Set<String>())

    /// Creates a cache.
    /// - Parameters:
    ///   - mode: ``CacheMode/private`` for an app's own cache (the default); ``CacheMode/shared`` for a server's
    ///     cache of an upstream that answers many users (it honours `s-maxage` and never keeps `private` responses).
    ///   - storage: Where responses are kept: 10 MiB in memory unless given.
    ///   - now: Where to read the time (the system's clock unless given): the times a response was requested and
    ///     received, and the current time its age is judged at (RFC 9111 §4.2.3), all come from it.
    public init(
        mode: CacheMode = .private, storage: any CacheStorage = MemoryCacheStorage(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.mode = mode
        self.storage = storage
        self.now = now
    }

    /// Removes every stored response.
    public func removeAll() async {
        await storage.removeAll()
    }

    // MARK: What the pipeline asks

    /// Claims `key` for a background revalidation.
    /// - Returns: `false` when one for `key` is already running.
    func beginBackgroundRevalidation(of key: String) -> Bool {
        revalidatingInBackground.withLock { $0.insert(key).inserted }
    }

    /// Releases `key` once its background revalidation ended.
    func endBackgroundRevalidation(of key: String) {
        _ = revalidatingInBackground.withLock { $0.remove(key) }
    }

    /// The stored responses for `request`'s key and the decision on them.
    func lookUp(_ request: Request, policy: CachePolicy, now: Date) async -> (CacheLookup, [CachedResponse]) {
        guard let key = CacheKey(method: .get, url: request.url), request.method == .get else { return (.miss, []) }
        var judged = request
        switch policy {
        case .useCache, .doNotStore, .reload: break
        case .revalidate: judged.headers.add(name: "Cache-Control", value: "no-cache")
        case .onlyIfCached: judged.headers.add(name: "Cache-Control", value: "only-if-cached")
        }
        let entries = policy == .reload ? [] : await storage.entries(for: key.description)
        let decision = CacheLookup.decide(
            request: judged, candidates: entries.map(\.stored), mode: mode, now: now)
        return (decision, entries)
    }

    /// Stores `response` (with `body`), the answer to `request`, when RFC 9111 §3 allows it, in place of the
    /// stored responses it replaces (the same `Vary` variant).
    func store(
        _ response: HTTPResponse, body: CachedBody, for request: Request, requestTime: Date, responseTime: Date
    ) async {
        guard case .storable = Storability.decide(request: request, response: response, mode: mode),
            let key = CacheKey(method: request.method, url: request.url)
        else { return }
        let entry = CachedResponse(
            requestHeaders: request.headers, response: response, body: body, requestTime: requestTime,
            responseTime: responseTime)
        let kept = await storage.entries(for: key.description).filter {
            !VaryKey.matches(entry.stored, requestHeaders: $0.requestHeaders)
        }
        await storage.setEntries(kept + [entry], for: key.description)
    }

    /// Replaces the stored response that `freshened` was made from (same head but for the header fields and times).
    func replace(_ original: CachedResponse, with freshened: StoredResponse, for request: Request) async {
        guard let key = CacheKey(method: .get, url: request.url)?.description else { return }
        var updated = original
        updated.stored = freshened
        await put(updated, inPlaceOf: original, among: await storage.entries(for: key), key: key)
    }

    /// Applies a `HEAD` response to the stored `GET` response it could have been chosen for (§4.3.5): updates its
    /// head when the validators and length agree, drops it when they do not.
    func freshen(with head: HTTPResponse, for request: Request, requestTime: Date, responseTime: Date) async {
        guard head.statusCode == 200, let key = CacheKey(method: .get, url: request.url)?.description else { return }
        let entries = await storage.entries(for: key)
        let matching = entries.filter { VaryKey.matches($0.stored, requestHeaders: request.headers) }
        guard let chosen = CacheLookup.mostRecent(matching.map(\.stored)),
            let entry = entries.first(where: { $0.stored == chosen })
        else { return }
        switch HeadFreshening.decide(chosen, head: head, requestTime: requestTime, responseTime: responseTime) {
        case .update(let freshened):
            var updated = entry
            updated.stored = freshened
            await put(updated, inPlaceOf: entry, among: entries, key: key)
        case .invalidate:
            await put(nil, inPlaceOf: entry, among: entries, key: key)
        case .unchanged:
            break
        }
    }

    /// Drops a stored response whose body can no longer be read (its file is gone or corrupt).
    func remove(_ entry: CachedResponse, for request: Request) async {
        guard let key = CacheKey(method: .get, url: request.url)?.description else { return }
        await put(nil, inPlaceOf: entry, among: await storage.entries(for: key), key: key)
    }

    /// Stores `entries` under `key` with `entry` replaced by `replacement`, or dropped when it is `nil`.
    private func put(
        _ replacement: CachedResponse?, inPlaceOf entry: CachedResponse, among entries: [CachedResponse], key: String
    ) async {
        var kept = entries.filter { $0 != entry }
        if let replacement { kept.append(replacement) }
        await storage.setEntries(kept, for: key)
    }

    /// Drops what an unsafe request's non-error `response` invalidates (§4.4).
    func invalidate(after request: Request, response: HTTPResponse) async {
        for uri in CacheInvalidation.invalidatedURIs(method: request.method, url: request.url, response: response) {
            await storage.setEntries([], for: "GET \(uri)")
        }
    }
}
