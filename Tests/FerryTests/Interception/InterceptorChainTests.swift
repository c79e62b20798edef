import Ferry
import FerryTesting
import Foundation
import Testing
import FerryLocking

@Suite("Interceptor chain (in memory)")
struct InterceptorChainTests {
    static func tagging(_ tag: String) -> Interceptor {
        Interceptor.adapter { request in
            var request = request
            request.headers.add(name: "X-Chain", value: tag)
            return request
        }
    }

    @Test func sessionInterceptorsAdaptFirstThenTheRequestsOwn() async throws {
        let log = RequestLog()
        let session = stubSession(configure: { $0.interceptors = [Self.tagging("a"), Self.tagging("b")] }) {
            log.append($0)
            return .status(204)
        }
        var request = Request(url: URL(string: "http://stub.test/x")!)
        request.interceptors = [Self.tagging("c")]
        _ = try await session.request(request).value
        #expect(log.all.first?.headers.values(for: "X-Chain") == ["a", "b", "c"])
        #expect(log.all.first?.headers["User-Agent"] != nil, "adapters see the session's defaults applied")
    }

    @Test func everyAttemptIsAdaptedAfreshWithItsNumber() async throws {
        let log = RequestLog()
        let numbering = Interceptor(
            adapt: { request, attempt in
                var request = request
                request.headers.add(name: "X-Attempt", value: String(attempt))
                return request
            },
            retry: { failure in failure.attempt < 3 ? .retry() : .doNotRetry })
        let session = stubSession(configure: { $0.interceptors = [numbering] }) {
            log.append($0)
            return .status(500)
        }
        let response = await session.get("x").response
        #expect(log.all.map { $0.headers.values(for: "X-Attempt") } == [["1"], ["2"], ["3"]])
        #expect(response.error?.reason == .unacceptableStatus(500))
        #expect(response.metrics.retryCount == 2)
    }

    @Test func theFirstRetrierThatRetriesDecidesAndSeesTheHistory() async throws {
        let calls = Counter()
        let seen = Locked<[[Int?]]>([])
        let never = Interceptor.retrier { _ in .doNotRetry }
        let recording = Interceptor.retrier { failure in
            seen.withLock { $0.append(failure.previousErrors.map(\.statusCode) + [failure.error.statusCode]) }
            return failure.attempt < 2 ? .retry() : .doNotRetry
        }
        let session = stubSession(configure: { $0.interceptors = [never, recording] }) { _ in
            calls.increment()
            return .status(calls.count == 1 ? 503 : 500)
        }
        _ = await session.get("x").response
        #expect(seen.withLock { $0 } == [[503], [503, 500]])
    }

    @Test func anAcceptedStatusIsNotAFailure() async throws {
        let asked = Counter()
        let session = stubSession(configure: {
            $0.interceptors = [
                Interceptor.retrier { _ in
                    asked.increment()
                    return .retry()
                }
            ]
            $0.validation = Validation(acceptableStatusCodes: Set(200..<500))
        }) { _ in .status(404) }
        #expect(await session.get("x").response.statusCode == 404)
        #expect(asked.count == 0)
    }

    @Test func aThrowingAdapterFailsTheRequestWithItsError() async throws {
        struct Unsigned: Error {}
        let sent = Counter()
        let session = stubSession(configure: {
            $0.interceptors = [Interceptor.adapter { _ in throw Unsigned() }]
        }) { _ in
            sent.increment()
            return .status(200)
        }
        let error = await #expect(throws: FerryError.self) { try await session.get("x").value }
        #expect(error?.reason == .interceptorFailed)
        #expect(error?.underlyingError is Unsigned)
        #expect(error?.request?.url.path == "/x")
        #expect(sent.count == 0)
    }

    @Test func anAdapterCannotSmuggleAnInvalidHeader() async throws {
        let session = stubSession(configure: {
            $0.interceptors = [
                Interceptor.adapter { request in
                    var request = request
                    request.headers.add(name: "X-Evil", value: "a\r\nInjected: yes")
                    return request
                }
            ]
        }) { _ in .status(200) }
        let error = await #expect(throws: FerryError.self) { try await session.get("x").value }
        guard case .invalidRequest = error?.reason else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
    }

    @Test func aThrowingRetrierReplacesTheError() async throws {
        let session = stubSession(configure: {
            $0.interceptors = [
                Interceptor.retrier { failure in
                    throw FerryError(.invalidRequest("gave up"), request: failure.request)
                }
            ]
        }) { _ in .status(503) }
        let error = await #expect(throws: FerryError.self) { try await session.get("x").value }
        #expect(error?.reason == .invalidRequest("gave up"))
    }

    @Test func aOneShotStreamIsNeverRetried() async throws {
        let asked = Counter()
        let calls = Counter()
        let session = stubSession(configure: {
            $0.interceptors = [
                Interceptor.retrier { _ in
                    asked.increment()
                    return .retry()
                }
            ]
        }) { request in
            calls.increment()
            _ = try await request.body?.bytes()
            return .status(503)
        }
        let chunks = AsyncStream<Data> { continuation in
            continuation.yield(Data("once".utf8))
            continuation.finish()
        }
        let response = await session.post("upload", body: .stream(chunks, count: 4)).response
        #expect(response.error?.reason == .unacceptableStatus(503))
        #expect(calls.count == 1)
        #expect(asked.count == 0, "the retriers are not even asked")
    }

    @Test func theRedirectChainOfTheLastAttemptIsRecorded() async throws {
        let calls = Counter()
        let session = stubSession(configure: { $0.interceptors = [RetryPolicy(random: { 0 })] }) { request in
            if request.url.path == "/start" { return StubResponse(statusCode: 302, headers: ["Location": "/end"]) }
            calls.increment()
            return .status(calls.count == 1 ? 503 : 200)
        }
        let response = await session.get("start").response
        #expect(response.statusCode == 200)
        #expect(response.metrics.urls.map(\.path) == ["/start", "/end"])
        #expect(response.metrics.redirectCount == 1)
        #expect(response.metrics.retryCount == 1)
    }

    @Test func withoutInterceptorsAStatusIsNeverRetried() async throws {
        let calls = Counter()
        let session = stubSession { _ in
            calls.increment()
            return .status(503)
        }
        _ = await session.get("x").response
        #expect(calls.count == 1)
    }
}
