import Ferry
import FerryTestServer
import FerryTesting
import Foundation
import Testing

@Suite("Lost kept-alive connections are retried once")
struct StaleConnectionTests {
    @Test func anIdempotentRequestIsRetriedOnceAtOnce() async throws {
        let calls = Counter()
        let session = stubSession { _ in
            calls.increment()
            if calls.count == 1 { throw URLError(.networkConnectionLost) }
            return .status(204)
        }
        let response = await session.get("x").response
        #expect(response.statusCode == 204)
        #expect(response.metrics.retryCount == 1)
        #expect(calls.count == 2)
    }

    @Test func onlyOnce() async throws {
        let calls = Counter()
        let session = stubSession { _ in
            calls.increment()
            throw URLError(.networkConnectionLost)
        }
        #expect(await session.get("x").response.error?.reason == .transport(.connectionLost))
        #expect(calls.count == 2)
    }

    @Test func aPostIsNotRetried() async throws {
        let calls = Counter()
        let session = stubSession { _ in
            calls.increment()
            throw URLError(.networkConnectionLost)
        }
        #expect(await session.post("x", body: .text("once")).response.error?.reason == .transport(.connectionLost))
        #expect(calls.count == 1)
    }

    @Test(arguments: TransportKind.allCases)
    func aConnectionClosedAsTheRequestArrivesIsRetried(transport: TransportKind) async throws {
        // The first request leaves a kept-alive connection; the server closes it as the second arrives, without a
        // byte of answer; the retry gets the answer.
        let live = try LiveServer(transport: transport)
        let arrivals = Counter()
        live.server.setRoute("/flaky") { _ in
            arrivals.increment()
            return arrivals.count == 2 ? .fault(.close) : .text("ok")
        }
        #expect(try await live.session.get("flaky").serializingString() == "ok")
        let response = await live.session.get("flaky").serialized(by: .string()).response
        #expect(response.value == "ok", "\(String(describing: response.error))")
        #expect(arrivals.count == 3)
        #expect(live.server.connectionCount >= 2, "the closed connection was not reused")
        // libcurl resends on a reused connection by itself; AsyncHTTPClient leaves it to Ferry.
        #expect(response.metrics.retryCount <= 1)
    }

    @Test(arguments: TransportKind.allCases)
    func aConnectionClosedBeforeAnyAnswerIsRetriedByFerry(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let arrivals = Counter()
        live.server.setRoute("/flaky") { _ in
            arrivals.increment()
            return arrivals.count == 1 ? .fault(.close) : .text("ok")
        }
        let response = await live.session.get("flaky").serialized(by: .string()).response
        #expect(response.value == "ok", "\(String(describing: response.error))")
        #expect(response.metrics.retryCount == 1)
        #expect(arrivals.count == 2)
    }

    @Test(arguments: TransportKind.allCases)
    func aServerThatKeepsClosingFailsAfterOneRetry(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let response = await live.session.get("fault/close").response
        #expect(response.error?.reason == .transport(.connectionLost))
        #expect(response.metrics.retryCount == 1)
        #expect(live.server.receivedRequests.filter { $0.path == "/fault/close" }.count == 2)
    }

    @Test(arguments: TransportKind.allCases)
    func aPostOnAClosedConnectionFailsWithoutARetry(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let arrivals = Counter()
        live.server.setRoute("/once") { _ in
            arrivals.increment()
            return .fault(.close)
        }
        let response = await live.session.post("once", body: .text("payload")).response
        #expect(response.error != nil)
        #expect(arrivals.count == 1)
    }
}
