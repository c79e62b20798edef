import Ferry
import FerryTestServer
import Foundation
import Testing

@Suite("Faults against the test server")
struct LiveFaultTests {
    @Test(
        arguments: TransportKind.allCases,
        [
            "fault/reset", "fault/reset-mid-body", "fault/truncate", "fault/bad-chunk", "fault/garbage", "fault/close",
            "fault/huge-header",
        ])
    func faultIsATransportError(transport: TransportKind, path: String) async throws {
        // The idle timeout only bounds a hang: on a loaded machine libcurl reports a reset or close late, and the
        // assertion is about which error comes, not how fast.
        let live = try LiveServer(transport: transport) { $0.idleTimeout = Duration.seconds(30).scaled }
        let response = await live.session.get(path).response
        let error = try #require(response.error, "\(path) must fail")
        guard case .transport = error.reason else {
            Issue.record("\(path): expected a transport failure, got \(error)")
            return
        }
        // The session still works afterwards.
        #expect(try await live.session.get("get").serializingJSON()["url"] != nil)
    }

    @Test(arguments: TransportKind.allCases, ["fault/close", "fault/reset"])
    func aConnectionClosedOrResetBeforeTheHeadIsLost(transport: TransportKind, path: String) async throws {
        // A retry policy retries a lost connection of an idempotent request; a WebSocket's handshake says the same
        // (`LiveWebSocketTests`).
        let live = try LiveServer(transport: transport)
        let error = await #expect(throws: FerryError.self) { try await live.session.get(path).value }
        #expect(error?.reason == .transport(.connectionLost))
    }

    @Test(arguments: TransportKind.allCases) func headersThatNeverComeHitTheIdleTimeout(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport) { $0.idleTimeout = .milliseconds(400) }
        let response = await live.session.get("fault/stall-headers").response
        #expect(response.error?.reason == .timedOut(.idle))
        #expect(response.timeline.requestDuration >= .milliseconds(400))
        // No hang; wide, because the answer to a stop that fired on time still waits for a cooperative thread.
        #expect(response.timeline.requestDuration < Duration.seconds(20).scaled)
    }

    @Test(arguments: TransportKind.allCases) func aStalledBodyKeepsTheStatusThatArrived(
        transport: TransportKind
    ) async throws {
        // Long enough for the head to arrive on a loaded two-core machine; the body never completes anyway.
        let live = try LiveServer(transport: transport) { $0.idleTimeout = Duration.seconds(5).scaled }
        let error = await #expect(throws: FerryError.self) { try await live.session.get("fault/stall-body").value }
        #expect(error?.reason == .timedOut(.idle))
        #expect(error?.statusCode == 200)
    }

    @Test(arguments: TransportKind.allCases) func slowDripWithinTheIdleTimeoutSucceeds(
        transport: TransportKind
    ) async throws {
        // Gaps of 1 s under a 4 s idle timeout, 5 s in all: an idle timer that measured the whole request fails. The
        // margin is wide because the test suite's CPU-bound tests can starve the 2 cooperative threads for seconds,
        // and with AsyncHTTPClient the bytes reach Ferry (and count as activity) on that pool. A slow build scales
        // the gaps, the idle timeout and the whole alike, so that the test means the same.
        let live = try LiveServer(transport: transport) { $0.idleTimeout = Duration.seconds(4).scaled }
        let duration = String(5 * TestTime.scale)
        let data = try await live.session.get(
            "drip", query: [.init(name: "numbytes", value: "5"), .init(name: "duration", value: duration)]
        )
        .serializingData()
        #expect(data == Data("*****".utf8))
    }

    @Test(arguments: TransportKind.allCases) func totalTimeoutEndsASlowDrip(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport) { $0.totalTimeout = .milliseconds(500) }
        let error = await #expect(throws: FerryError.self) {
            try await live.session.get(
                "drip", query: [.init(name: "numbytes", value: "20"), .init(name: "duration", value: "4")]
            ).value
        }
        #expect(error?.reason == .timedOut(.total))
    }

    @Test(arguments: TransportKind.allCases) func refusedConnectionIsCannotConnect(
        transport: TransportKind
    ) async throws {
        let refusing = try RefusingPort()
        let port = refusing.port
        let session = Session(transport: transport.makeTransport())
        let error = await #expect(throws: FerryError.self) { try await session.get("http://127.0.0.1:\(port)/").value }
        withExtendedLifetime(refusing) {}
        #expect(error?.reason == .transport(.cannotConnect))
    }

    #if AsyncHTTPClient
    // URLSession on Linux takes no proxy (`ProxyInteropTests`): AsyncHTTPClient only.
    @Test(arguments: [ProxyServer.Kind.http, .socks5])
    func aProxyThatIsDownIsNamedAsTheHostThatCannotBeReached(proxy: ProxyServer.Kind) async throws {
        // Given a proxy whose port refuses every connection
        let refusing = try RefusingPort()
        let session = Session(transport: try AsyncHTTPClientTransport(proxy: refusing.proxy(proxy)))
        // When a request goes through it
        let error = await #expect(throws: FerryError.self) { try await session.get("http://127.0.0.1:1/").value }
        withExtendedLifetime(refusing) {}
        // Then it cannot connect, and the message says the proxy could not be reached (it named the server's
        // 127.0.0.1:1, which was never tried)
        #expect(error?.reason == .transport(.cannotConnect))
        let message = error?.localizedDescription ?? ""
        #expect(message.contains("could not reach the proxy \(proxy)://127.0.0.1:\(refusing.port)"), "\(message)")
        #expect(message.hasSuffix("connection refused."), "\(message)")
        #expect(error?.recoverySuggestion?.hasPrefix("Check that the proxy is running") == true)
    }
    #endif
}
