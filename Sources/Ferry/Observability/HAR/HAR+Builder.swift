import Foundation

extension HAR {
    /// Turns a timeline's attempts into HAR entries.
    struct Builder {
        let timeline: Timeline
        let body: Data?
        /// Lowercased header names whose values are hidden.
        let redacted: Set<String>

        func entries() -> [Entry] {
            let attempts = timeline.attempts
            return attempts.indices.map { index in
                entry(attempts[index], isLast: index == attempts.count - 1)
            }
        }

        private func entry(_ attempt: Timeline.Attempt, isLast: Bool) -> Entry {
            let offset = max(0, Self.milliseconds(timeline.requestStart.duration(to: attempt.start)))
            let started = timeline.startDate.addingTimeInterval(offset / 1000)
            let head = attempt.responseStart ?? attempt.end
            let timings = Timings(
                blocked: Self.milliseconds(attempt.queueWait),
                wait: Self.milliseconds(attempt.sendStart.duration(to: head)),
                receive: Self.milliseconds(head.duration(to: attempt.end)))
            return Entry(
                startedDateTime: started.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
                time: timings.blocked + timings.wait + timings.receive,
                request: request(attempt),
                response: response(attempt, body: isLast ? body : nil),
                timings: timings,
                comment: comment(attempt))
        }

        private func request(_ attempt: Timeline.Attempt) -> EntryRequest {
            let query = URLComponents(url: attempt.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            let cookies = attempt.requestHeaders.filter { $0.name.lowercased() == "cookie" }.flatMap { field in
                field.value.split(separator: ";").map { pair in
                    let (name, value) = Self.split(pair)
                    return Cookie(name: name, value: hidden("Cookie") ? redactedValue : value)
                }
            }
            return EntryRequest(
                method: attempt.method.rawValue, url: FerryError.display(attempt.url),
                httpVersion: attempt.response?.httpVersion ?? "", cookies: cookies,
                headers: headers(attempt.requestHeaders),
                queryString: query.map { NameValue(name: $0.name, value: $0.value ?? "") },
                bodySize: attempt.requestBodySize ?? -1)
        }

        private func response(_ attempt: Timeline.Attempt, body: Data?) -> EntryResponse {
            guard let head = attempt.response else {
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
