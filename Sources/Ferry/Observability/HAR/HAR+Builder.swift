import Foundation

extension HAR {
    /// Turns a timeline's attempts into HAR entries, and an answer the cache gave in place of the server's into one
    /// more.
    struct Builder {
        let timeline: Timeline
        let body: Data?
        /// Lowercased header names whose values are hidden.
        let redacted: Set<String>
        /// Where the response came from, when the session's cache decided (``Metrics/cacheStatus``).
        var cacheStatus: CacheStatus? = nil
        /// The request as sent (defaults applied): the cache's answer's entry shows it.
        var request: Request? = nil
        /// The final response head: the cache's answer's entry shows it, and its `ETag` is the stored one's.
        var response: HTTPResponse? = nil

        func entries() -> [Entry] {
            let attempts = timeline.attempts
            let answered = cacheAnswer()
            var entries = attempts.indices.map { index in
                entry(attempts[index], isLast: answered == nil && index == attempts.count - 1)
            }
            if let answered { entries.append(answered) }
            if let cacheStatus, !entries.isEmpty { entries[entries.count - 1].cache = cache(cacheStatus) }
            return entries
        }

        private func entry(_ attempt: Timeline.Attempt, isLast: Bool) -> Entry {
            let head = attempt.responseStart ?? attempt.end
            let timings = Timings(
                blocked: Self.milliseconds(attempt.queueWait),
                wait: Self.milliseconds(attempt.sendStart.duration(to: head)),
                receive: Self.milliseconds(head.duration(to: attempt.end)))
            return Entry(
                startedDateTime: date(attempt.start),
                time: timings.blocked + timings.wait + timings.receive,
                request: request(attempt),
                response: response(attempt.response, body: isLast ? body : nil),
                timings: timings,
                comment: comment(attempt))
        }

        /// The entry of an answer the cache gave in place of the server's (a hit, a stale hit, the cache's 504):
        /// nothing of it went through the transport, so no attempt records it. It starts when the last attempt ended
        /// (or the request started), waits until the cache decided and receives until the request completed.
        private func cacheAnswer() -> Entry? {
            guard let cacheStatus, cacheStatus != .miss, cacheStatus != .revalidated, let request, let response else {
                return nil
            }
            let start = timeline.attempts.last?.end ?? timeline.requestStart
            let decided = max(start, timeline.cacheDecided ?? start)
            let timings = Timings(
                blocked: -1, wait: Self.milliseconds(start.duration(to: decided)),
                receive: Self.milliseconds(decided.duration(to: max(decided, timeline.requestCompleted))))
            let entryRequest = EntryRequest(
                method: request.method.rawValue, url: FerryError.display(request.url),
                httpVersion: response.httpVersion ?? "", cookies: cookies(request.headers),
                headers: headers(request.headers), queryString: queryString(request.url),
                bodySize: request.body.map { $0.inMemoryCount ?? -1 } ?? 0)
            return Entry(
                startedDateTime: date(start), time: timings.wait + timings.receive, request: entryRequest,
                response: self.response(response, body: body), timings: timings, comment: "answered by the cache")
        }

        /// The final entry's cache object: the status, and the stored response when one answered.
        private func cache(_ status: CacheStatus) -> Cache {
            let stored = CacheEntry(
                lastAccess: date(timeline.cacheDecided ?? timeline.requestCompleted),
                eTag: response?.headers["ETag"] ?? "")
            switch status {
            case .hit:
                return Cache(afterRequest: stored, comment: "hit: a fresh stored response answered without the server")
            case .staleHit:
                return Cache(
                    afterRequest: stored,
                    comment: "stale hit: a stale stored response answered, as the request or the response allowed")
            case .revalidated:
                return Cache(
                    afterRequest: stored, comment: "revalidated: the server's 304 confirmed the stored response")
            case .miss:
                return Cache(comment: "miss: nothing stored could answer; the response came from the server")
            case .unsatisfiable:
                return Cache(
                    comment: "unsatisfiable: only-if-cached, and nothing stored could answer; a 504 by the cache")
            }
        }

        /// An instant of the timeline as a HAR date (ISO 8601), from the wall-clock start.
        private func date(_ instant: ContinuousClock.Instant) -> String {
            let offset = max(0, Self.milliseconds(timeline.requestStart.duration(to: instant)))
            return timeline.startDate.addingTimeInterval(offset / 1000)
                .formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        }

        private func request(_ attempt: Timeline.Attempt) -> EntryRequest {
            EntryRequest(
                method: attempt.method.rawValue, url: FerryError.display(attempt.url),
                httpVersion: attempt.response?.httpVersion ?? "", cookies: cookies(attempt.requestHeaders),
                headers: headers(attempt.requestHeaders), queryString: queryString(attempt.url),
                bodySize: attempt.requestBodySize ?? -1)
        }

        private func queryString(_ url: URL) -> [NameValue] {
            let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            return query.map { NameValue(name: $0.name, value: $0.value ?? "") }
        }

        private func cookies(_ headers: HTTPHeaders) -> [Cookie] {
            headers.filter { $0.name.lowercased() == "cookie" }.flatMap { field in
                field.value.split(separator: ";").map { pair in
                    let (name, value) = Self.split(pair)
                    return Cookie(name: name, value: hidden("Cookie") ? redactedValue : value)
                }
            }
        }

        private func response(_ head: HTTPResponse?, body: Data?) -> EntryResponse {
            guard let head else {
                return EntryResponse(
                    status: 0, statusText: "", httpVersion: "", cookies: [], headers: [],
                    content: Content(size: 0, mimeType: "x-unknown"), redirectURL: "", bodySize: -1)
            }
            let cookies = head.headers.filter { $0.name.lowercased() == "set-cookie" }.map(setCookie)
            var content = Content(
                size: body.map { Int64($0.count) } ?? head.expectedContentLength ?? 0, mimeType: head.contentType ?? "")
            if let body {
                if let text = String(data: body, encoding: .utf8) {
                    content.text = text
                } else {
                    content.text = body.base64EncodedString()
                    content.encoding = "base64"
                }
            }
            let encoded = head.headers.contains("Content-Encoding")
            return EntryResponse(
                status: head.statusCode, statusText: StatusReasonPhrase.phrase(head.statusCode) ?? "",
                httpVersion: head.httpVersion ?? "", cookies: cookies, headers: headers(head.headers),
                content: content, redirectURL: head.headers["Location"] ?? "",
                bodySize: encoded ? -1 : head.expectedContentLength ?? body.map { Int64($0.count) } ?? -1)
        }

        private func comment(_ attempt: Timeline.Attempt) -> String? {
            var parts: [String] = []
            if attempt.attempt > 1 || attempt.isRedirect {
                parts.append("attempt \(attempt.attempt)" + (attempt.isRedirect ? ", redirect \(attempt.hop)" : ""))
            }
            if let failure = attempt.failure { parts.append("failed: \(failure)") }
            if let delay = attempt.retryDelay {
                parts.append(String(format: "retried after %.3f ms", Self.milliseconds(delay)))
            }
            return parts.isEmpty ? nil : parts.joined(separator: "; ")
        }

        private func headers(_ headers: HTTPHeaders) -> [NameValue] {
            headers.map { NameValue(name: $0.name, value: hidden($0.name) ? redactedValue : $0.value) }
        }

        private func hidden(_ name: String) -> Bool {
            redacted.contains(name.lowercased())
        }

        /// A `Set-Cookie` field as a HAR cookie: name, value and the attributes HAR names.
        private func setCookie(_ field: HTTPHeader) -> Cookie {
            let parts = field.value.split(separator: ";")
            let (name, value) = parts.first.map(Self.split) ?? ("", "")
            var cookie = Cookie(name: name, value: hidden("Set-Cookie") ? redactedValue : value)
            for attribute in parts.dropFirst() {
                let (key, value) = Self.split(attribute)
                switch key.lowercased() {
                case "path": cookie.path = value
                case "domain": cookie.domain = value
                case "httponly": cookie.httpOnly = true
                case "secure": cookie.secure = true
                default: break
                }
            }
            return cookie
        }

        private static func split(_ pair: Substring) -> (String, String) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            let value = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            return (name, value)
        }

        static func milliseconds(_ duration: Duration) -> Double {
            let (seconds, attoseconds) = duration.components
            let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
            return value.isFinite ? value : 0
        }
    }
}
