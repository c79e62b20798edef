import Ferry
import Foundation
import Testing

/// A connection that is neither refused nor answered ends with the request's own timeout, wherever it stalls: at the
/// connection attempt, or at a proxy that takes the connection and says nothing. (The same for a WebSocket's
/// handshake is in `LiveWebSocketTests`.)
@Suite("Connections that stall before the server answers")
struct LiveStalledConnectionTests {
    @Test(arguments: TransportKind.allCases, [FerryError.TimeoutKind.idle, .total])
    func aConnectionAttemptNeverAnsweredEndsWithTheRequestsTimeout(
        transport: TransportKind, kind: FerryError.TimeoutKind
    ) async throws {
        // Given a port where a connection attempt is never answered
        let stalling = try StallingPort(at: .connecting)
        let session = Session.timingOut(kind, transport: transport.makeTransport())
        // When a request goes there, then its timeout ends it: connecting is part of the request
        let error = await #expect(throws: FerryError.self) {
            try await session.get("http://127.0.0.1:\(stalling.port)/").value
        }
        withExtendedLifetime(stalling) {}
        #expect(error?.reason == .timedOut(kind))
    }

    #if AsyncHTTPClient
    // URLSession on Linux takes no proxy (`ProxyInteropTests`): AsyncHTTPClient only.
    @Test(arguments: [ProxyServer.Kind.http, .socks5], [FerryError.TimeoutKind.idle, .total])
    func aProxyThatNeverAnswersEndsWithTheRequestsTimeout(
        proxy: ProxyServer.Kind, kind: FerryError.TimeoutKind
    ) async throws {
        // Given a proxy that takes the connection and never answers
        let stalling = try StallingPort(at: .answering)
        let session = Session.timingOut(kind, transport: try AsyncHTTPClientTransport(proxy: stalling.proxy(proxy)))
        // When a request goes through it, then the request's timeout ends it
        let error = await #expect(throws: FerryError.self) { try await session.get("http://127.0.0.1:1/").value }
        withExtendedLifetime(stalling) {}
        #expect(error?.reason == .timedOut(kind))
    }
    #endif
}
