import Foundation

/// The pipeline's cache steps (RFC 9111), for a `GET` read into memory or downloaded to a file when the session has
/// an ``HTTPCache``: look up before sending, revalidate with a conditional request, store after the body is read
/// (`readData`, `readDownload`), freshen after a `HEAD`, invalidate after an unsafe request.
extension Pipeline {
    /// What the lookup decided before anything is sent.
    enum CacheStep {
        /// A stored response (or the cache's 504) answers: nothing is sent.
        case answer(Answer, CacheStatus)
        /// Send a conditional request for this stored response.
        case revalidate(CachedResponse)
        /// Send the request as it is.
        case send
    }

    /// A stored response that a conditional request revalidates. An object, so that `open` holds a pointer to it
    /// across its waits, not the 289-byte value (Benchmarks/README.md, "The request's async frames").
    final class Revalidation: Sendable {
        /// The stored response.
        let entry: CachedResponse

        init(_ entry: CachedResponse) {
            self.entry = entry
        }
    }

    /// What the cache decided before anything is sent, in the small form that `open` keeps.
    enum CacheOpening {
        /// A stored response (or the cache's 504) answers: nothing is sent.
        case opened(Opened)
        /// Send a conditional request for this stored response.
        case revalidate(Revalidation)
        /// Send the request as it is.
        case send
    }

    /// What the body's reader stores once the body is read.
    struct CacheWrite: Sendable {
        let cache: HTTPCache
        let request: Request
        let requestTime: Date
        let responseTime: Date
    }

    // The cache's steps of `open` below are never inlined into it. Every request allocates `open`'s async frame (from
    // its task's allocator, which mallocs a new slab for it in a task of its own), with or without a cache. Inlined,
    // these steps' large values (stored responses, lookups, revalidation outcomes) made that frame 10,176 bytes; kept
    // out, 2,416. Measured in Benchmarks/README.md, "The request's async frames".

    /// Looks the prepared request up in `cache` and settles what it decided: an opened request when a stored response
    /// (or the cache's 504) answers, else what to send.
    @inline(never)
    func openFromCache(
        _ prepared: PreparedRequest, in cache: HTTPCache, validation: Validation, exchange: Exchange,
        file: DownloadFile?, id: RequestID
    ) async -> CacheOpening {
        exchange.cacheStatus = .miss
        let (step, revalidateInBackground) = await lookUp(prepared.request, in: cache, streaming: file != nil)
        let opening: CacheOpening
        switch step {
        case .answer(let answer, let status):
            settleCache(status, for: prepared.request, exchange: exchange, id: id)
            opening = .opened(
                served(answer, prepared: prepared, validation: validation, exchange: exchange, file: file))
        case .revalidate(let entry):
            opening = .revalidate(Revalidation(entry))
        case .send:
            settleCache(.miss, for: prepared.request, exchange: exchange, id: id)
            opening = .send
        }
        // Started once the stale response is settled, so that monitors see the stale hit before the revalidation it
        // caused (started before, the background request could be decided first).
        if revalidateInBackground { self.revalidateInBackground(prepared.request, in: cache) }
        return opening
    }

    /// After a conditional request failed: the stored response, when the cache may serve it stale on error
    /// (`stale-if-error`, RFC 5861 §4), opened and settled; `nil` to handle the failure as any other.
    @inline(never)
    func servedOnError(
        _ revalidation: Revalidation, for request: Request, in cache: HTTPCache, requestTime: Date,
        prepared: PreparedRequest, validation: Validation, exchange: Exchange, file: DownloadFile?, id: RequestID
    ) async -> Opened? {
        guard
            case (let stored?, let status, _) = await revalidated(
                revalidation.entry, by: nil, for: request, in: cache, requestTime: requestTime, streaming: file != nil)
        else { return nil }
        settleCache(status, for: prepared.request, exchange: exchange, id: id)
        return served(stored, prepared: prepared, validation: validation, exchange: exchange, file: file)
    }

    /// Applies the server's answer to a conditional request: when the stored response is used (freshened by a `304`,
    /// or served stale), it replaces `answer`, whose body is dropped.
    /// - Returns: Whether the request must be sent again, without the cache's validators.
    @inline(never)
    func concludeRevalidation(
        _ revalidation: Revalidation, answer: inout Answer, for request: Request, in cache: HTTPCache,
        requestTime: Date, exchange: Exchange, streaming: Bool
    ) async -> Bool {
        let (stored, status, again) = await revalidated(
            revalidation.entry, by: answer.response.head, for: request, in: cache, requestTime: requestTime,
            streaming: streaming)
        if stored != nil || again { answer.response.body.cancel() }
        guard let stored else { return again }
        exchange.cacheStatus = status
        exchange.head = stored.response.head
        answer = stored
        return false
    }

    /// Looks `request` up in `cache`.
    /// - Parameter streaming: Whether the body goes to a file (a download): a stored body is then read in chunks
    ///   as the file is written, not into memory first.
    /// - Returns: What to do, and whether the stale response found is to be revalidated in the background
    ///   (`stale-while-revalidate`), which the caller starts once it settled the step.
    func lookUp(
        _ request: Request, in cache: HTTPCache, streaming: Bool
    ) async -> (step: CacheStep, revalidateInBackground: Bool) {
        let (decision, entries) = await cache.lookUp(request, policy: request.cachePolicy, now: cache.now())
        func entry(_ stored: StoredResponse) -> CachedResponse? { entries.first { $0.stored == stored } }
        switch decision {
        case .fresh(let stored, let age):
            if let notModified = ReceivedValidation.notModified(for: request, stored: stored, age: age) {
                return (.answer(Self.bodiless(notModified), .hit), false)
            }
            guard let entry = entry(stored) else { return (.send, false) }
            return (await serve(entry, as: .hit, for: request, in: cache, age: age, streaming: streaming), false)
        case .stale(let stored, let age, let revalidateInBackground):
            guard let entry = entry(stored) else { return (.send, false) }
            if let notModified = ReceivedValidation.notModified(for: request, stored: stored, age: age) {
                return (.answer(Self.bodiless(notModified), .staleHit), revalidateInBackground)
            }
            let step = await serve(entry, as: .staleHit, for: request, in: cache, age: age, streaming: streaming)
            return (step, revalidateInBackground)
        case .revalidate(let stored, _, _):
            guard let entry = entry(stored) else { return (.send, false) }
            return (.revalidate(entry), false)
        case .gatewayTimeout:
            let head = HTTPResponse(statusCode: 504, headers: ["Content-Length": "0"], url: request.url)
            return (.answer(Self.bodiless(head), .unsatisfiable), false)
        case .miss:
            return (.send, false)
        }
    }

    /// Starts a request of its own that revalidates the stale response just served (`stale-while-revalidate`, RFC
    /// 5861 §3), unless one for the same key is running: the same request with ``CachePolicy/revalidate``, on an
    /// unstructured task the session counts, waits for at shutdown and cancels with the others. Its answer updates
    /// the cache (a 304 freshens the stored response, a 200 replaces it) and goes nowhere else.
    func revalidateInBackground(_ request: Request, in cache: HTTPCache) {
        guard let key = CacheKey(method: .get, url: request.url)?.description,
            cache.beginBackgroundRevalidation(of: key)
        else { return }
        var revalidation = request
        revalidation.cachePolicy = .revalidate
        let transfer = Transfer(.data(self, revalidation), registry: registry)
        Task {
            _ = await transfer.outcome(validation: .none)
            cache.endBackgroundRevalidation(of: key)
        }
    }

    /// What to do with the answer to a conditional request (or its failure, `head` `nil`).
    /// - Returns: The answer to use instead of the server's, or `nil` to use the server's (`repeat` says whether
    ///   the request must be sent again without the cache's validators).
    func revalidated(
        _ entry: CachedResponse, by head: HTTPResponse?, for request: Request, in cache: HTTPCache, requestTime: Date,
        streaming: Bool
    ) async -> (answer: Answer?, status: CacheStatus, repeat: Bool) {
        let now = cache.now()
        switch RevalidationOutcome.decide(
            response: head, revalidating: entry.stored, request: request, mode: cache.mode, requestTime: requestTime,
            now: now)
        {
        case .useStored(let freshened):
            // The client's own condition, judged against the freshened response (§4.3.2).
            if let notModified = ReceivedValidation.notModified(for: request, stored: freshened, age: nil) {
                await cache.replace(entry, with: freshened, for: request)
                return (Self.bodiless(notModified), .revalidated, false)
            }
            switch Self.answer(entry, head: freshened.response, for: request, streaming: streaming) {
            case .answer(let answer):
                await cache.replace(entry, with: freshened, for: request)
                return (answer, .revalidated, false)
            case .toServer:
                // The range the stored response cannot answer: asked again, without the cache's validators.
                await cache.replace(entry, with: freshened, for: request)
                return (nil, .miss, head != nil)
            case .unreadable:
                // A stored body that can no longer be read: dropped, and the request sent again without validators.
                await cache.remove(entry, for: request)
                return (nil, .miss, head != nil)
            }
        case .useStoredOnError:
            let age = entry.stored.age(now: now).headerValue
            guard let answer = Self.answer(entry, head: entry.response, age: age, streaming: streaming) else {
                await cache.remove(entry, for: request)
                return (nil, .miss, false)
            }
            return (answer, .staleHit, false)
        case .repeatUnconditionally:
            return (nil, .miss, true)
        case .useResponse, .fail:
            return (nil, .miss, false)
        }
    }

    /// The opened request for an answer the cache made: judged by the task's validation like any other head.
    func served(
        _ answer: Answer, prepared: PreparedRequest, validation: Validation, exchange: Exchange, file: DownloadFile?
    ) -> Opened {
        let head = answer.response.head
        exchange.head = head
        exchange.firstResponseByte = exchange.firstResponseByte ?? .now
        return Opened(
            answer, prepared: prepared, rejection: judge(head, sent: prepared.request, by: validation),
            exchange: exchange, validation: validation, file: file)
    }

    /// After the server's answer to `request`: invalidates what an unsafe request changed, freshens or drops the
    /// stored `GET` response a `HEAD` response speaks for (§4.3.5), and notes a `GET`'s response for storing once
    /// its body is read (not after a redirect: it would be filed under the first URL).
    @inline(never)
    func noteForCache(
        _ answer: Answer, request: Request, cache: HTTPCache, requestTime: Date, exchange: Exchange
    ) async {
        let head = answer.response.head
        if request.method == .head {
            guard exchange.urls.count <= 1 else { return }
            await cache.freshen(with: head, for: request, requestTime: requestTime, responseTime: cache.now())
            return
        }
        guard request.method == .get else {
            await cache.invalidate(after: request, response: head)
            return
        }
        guard exchange.cacheStatus == .miss, request.cachePolicy != .doNotStore, exchange.urls.count <= 1 else {
            return
        }
        exchange.cacheWrite = CacheWrite(
            cache: cache, request: request, requestTime: requestTime, responseTime: cache.now())
    }

    /// A head the cache makes (a `304` to the request's own condition, a `504`) as an answer without a body.
    private static func bodiless(_ head: HTTPResponse) -> Answer {
        Answer(response: TransportResponse(head: head, body: .empty), bodyLength: 0)
    }

    /// A stored response as the answer to `request`, or the request sent when the server must answer it; a stored
    /// body that can no longer be read (its file is gone, truncated or corrupt) is dropped.
    private func serve(
        _ entry: CachedResponse, as status: CacheStatus, for request: Request, in cache: HTTPCache, age: String?,
        streaming: Bool
    ) async -> CacheStep {
        var head = entry.stored.response
        if let age { head.headers.update(name: "Age", value: age) }
        switch Self.answer(entry, head: head, for: request, streaming: streaming) {
        case .answer(let answer):
            return .answer(answer, status)
        case .toServer:
            return .send
        case .unreadable:
            await cache.remove(entry, for: request)
            return .send
        }
    }

    /// What a stored response makes of a request.
    enum StoredAnswer {
        /// The stored response answers: whole, or the range the request asks for.
        case answer(Answer)
        /// The server must answer the request's range.
        case toServer
        /// The stored body can no longer be read.
        case unreadable
    }

    /// A stored response, with `head` (aged or freshened), as the answer to `request`: whole, or the one range of
    /// its body the request asks for (``StoredRange``).
    static func answer(
        _ entry: CachedResponse, head: HTTPResponse, for request: Request, streaming: Bool
    ) -> StoredAnswer {
        let length = entry.body.byteCount
        switch StoredRange.decide(request, stored: head, length: length) {
        case .whole:
            return answer(entry, head: head, age: nil, streaming: streaming).map { .answer($0) } ?? .unreadable
        case .send:
            return .toServer
        case .part(let part):
            // A download's range goes to the server: a part is cut from a body held in memory, and a download's
            // body is streamed from the store's file.
            guard !streaming else { return .toServer }
            guard let body = entry.body.load(), body.count == length else { return .unreadable }
            let slice = Data(body[(body.startIndex + part.lowerBound)...(body.startIndex + part.upperBound)])
            let partHead = StoredRange.head(of: head, part: part, length: length)
            return .answer(
                Answer(
                    response: TransportResponse(head: partHead, body: .chunks([slice])), bodyLength: Int64(slice.count))
            )
        }
    }

    /// A stored response as an answer: its head (with `Age` when given) and its body, read into memory (a
    /// ``DataTask`` holds it whole anyway).
    /// - Returns: The answer, or `nil` when the body can no longer be read (its file is gone, truncated or corrupt).
    private static func answer(_ entry: CachedResponse, head: HTTPResponse, age: String?, streaming: Bool) -> Answer? {
        var head = head
        if let age { head.headers.update(name: "Age", value: age) }
        if streaming {
            guard let body = entry.body.responseBody() else { return nil }
            return Answer(response: TransportResponse(head: head, body: body), bodyLength: Int64(entry.body.byteCount))
        }
        guard let body = entry.body.load() else { return nil }
        return Answer(response: TransportResponse(head: head, body: .chunks([body])), bodyLength: Int64(body.count))
    }
}
