@testable import Ferry
import FerryTesting
import Foundation
import Testing

@Suite("Authentication interceptor (in memory)", .timeLimit(.minutes(1)))
struct AuthenticationInterceptorTests {
    struct RefreshRejected: Error {}

    /// An interceptor starting with `Bearer stale` whose refresh returns `Bearer fresh` (or throws), counting refreshes.
    static func interceptor(refreshes: Counter, failing: Bool = false) -> AuthenticationInterceptor {
        AuthenticationInterceptor(credential: .bearer("stale")) { current in
            refreshes.increment()
            #expect(current == .bearer("stale"))
            if failing { throw RefreshRejected() }
            return .bearer("fresh")
        }
    }

    @Test func aHundredConcurrent401sCauseOneRefreshAndOneRetryEach() async throws {
        let refreshes = Counter()
        let auth = Self.interceptor(refreshes: refreshes)
        let log = RequestLog()
        // Every request is sent with the stale credential before any is answered.
        let gate = Gate(count: 100)
        let session = stubSession(configure: { $0.interceptors = [auth] }) { request in
            log.append(request)
            if request.headers["Authorization"] == "Bearer fresh" { return .json(#"{"ok":true}"#) }
            await gate.arrive()
            return .status(401)
        }
        let responses = await withTaskGroup(of: DataResponse<Data>.self) { group in
            for index in 0..<100 { group.addTask { await session.get("items/\(index)").response } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(responses.count == 100)
        #expect(responses.allSatisfy { $0.statusCode == 200 && $0.error == nil })
        #expect(responses.allSatisfy { $0.metrics.retryCount == 1 }, "each retried exactly once")
        #expect(refreshes.count == 1)
        #expect(await auth.store.refreshCount == 1)
        let sent = log.all.map { $0.headers["Authorization"] }
        #expect(sent.count == 200)
        #expect(sent.count { $0 == "Bearer stale" } == 100)
        #expect(sent.count { $0 == "Bearer fresh" } == 100)
    }

    @Test func aFailedRefreshFailsEveryWaitingRequestWithAClearError() async throws {
        let refreshes = Counter()
        let auth = Self.interceptor(refreshes: refreshes, failing: true)
        let calls = Counter()
        let gate = Gate(count: 100)
        let session = stubSession(configure: { $0.interceptors = [auth] }) { _ in
            calls.increment()
            await gate.arrive()
            return .status(401)
        }
        let errors = await withTaskGroup(of: FerryError?.self) { group in
            for index in 0..<100 { group.addTask { await session.get("items/\(index)").response.error } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(errors.count == 100)
        #expect(errors.allSatisfy { $0?.reason == .authenticationFailed && $0?.underlyingError is RefreshRejected })
        #expect(errors.allSatisfy { $0?.statusCode == 401 })
        #expect(refreshes.count == 1)
        #expect(calls.count == 100, "nothing was sent again")
        let message = try #require(errors.first??.errorDescription)
        #expect(message.contains("the credential could not be refreshed"), "\(message)")
    }

    @Test func aRejectedCredentialIsNotSentAgainAfterAFailedRefresh() async throws {
        let attempts = Counter()
        let auth = AuthenticationInterceptor(credential: .bearer("stale")) { _ in
            attempts.increment()
            if attempts.count == 1 { throw RefreshRejected() }
            return .bearer("fresh")
        }
        let log = RequestLog()
        let session = stubSession(configure: { $0.interceptors = [auth] }) { request in
            log.append(request)
            return .status(request.headers["Authorization"] == "Bearer fresh" ? 200 : 401)
        }
        #expect(await session.get("a").response.error?.reason == .authenticationFailed)
        #expect(await session.get("b").response.statusCode == 200)
        #expect(log.all.map { $0.headers["Authorization"] } == ["Bearer stale", "Bearer fresh"])
    }

    @Test func aCredentialIsRefreshedBeforeItExpires() async throws {
        let refreshes = Counter()
        let auth = AuthenticationInterceptor(
            credential: .bearer("stale", expiration: Date().addingTimeInterval(30)), refreshWindow: .seconds(60)
        ) { _ in
            refreshes.increment()
            return .bearer("fresh", expiration: Date().addingTimeInterval(3600))
        }
        let log = RequestLog()
        let session = stubSession(configure: { $0.interceptors = [auth] }) { request in
            log.append(request)
            return .status(204)
        }
        _ = try await session.get("a").value
        _ = try await session.get("b").value
        #expect(log.all.map { $0.headers["Authorization"] } == ["Bearer fresh", "Bearer fresh"])
        #expect(refreshes.count == 1)
        #expect(await auth.credential == .bearer("fresh", expiration: await auth.credential?.expiration))
    }

    @Test func aCredentialTheServerKeepsRejectingEndsInThe401() async throws {
        let refreshes = Counter()
        let auth = Self.interceptor(refreshes: refreshes)
        let calls = Counter()
        let session = stubSession(configure: { $0.interceptors = [auth] }) { _ in
            calls.increment()
            return .status(401)
        }
        let error = await #expect(throws: FerryError.self) { try await session.get("x").value }
        #expect(error?.reason == .unacceptableStatus(401))
        #expect(calls.count == 2, "one retry, then the 401 stands")
        #expect(refreshes.count == 1)
    }

    @Test func onlyMatchingRequestsGetTheCredential() async throws {
        let refreshes = Counter()
        let auth = AuthenticationInterceptor(
            credential: .bearer("secret"), authenticates: { $0.url.host == "api.test" }
        ) { _ in
            refreshes.increment()
            return .bearer("other")
        }
        let log = RequestLog()
        let session = stubSession(configure: { $0.interceptors = [auth] }) { request in
            log.append(request)
            return .status(401)
        }
        _ = await session.get("http://elsewhere.test/x").response
        #expect(log.all.count == 1)
        #expect(log.all.first?.headers["Authorization"] == nil)
        #expect(refreshes.count == 0)
    }

    @Test func worksTogetherWithARetryPolicy() async throws {
        let refreshes = Counter()
        let auth = Self.interceptor(refreshes: refreshes)
        let calls = Counter()
        let session = stubSession(configure: { $0.interceptors = [RetryPolicy(random: { 0 }), auth] }) { request in
            calls.increment()
            if calls.count == 1 { return .status(503) }
            return .status(request.headers["Authorization"] == "Bearer fresh" ? 200 : 401)
        }
        let response = await session.get("x").response
        #expect(response.statusCode == 200)
        #expect(response.metrics.retryCount == 2)
        #expect(refreshes.count == 1)
    }
}
