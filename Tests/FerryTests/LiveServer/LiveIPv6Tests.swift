import Ferry
import FerryTestServer
import Foundation
import Testing

/// IPv6 literal URLs (`http://[::1]:PORT/`) on each transport: the body arrives on the transports that reach such
/// hosts, and URLSession on Linux fails with a typed error that says why and what to use instead.
@Suite("IPv6 literal hosts", .enabled(if: IPv6Loopback.isAvailable))
struct LiveIPv6Tests {
    @Test(arguments: TransportKind.allCases) func testServerOnIPv6Loopback(transport: TransportKind) async throws {
        // Given a server that listens on ::1 only
        let server = try TestServer(host: "::1")
        defer { server.shutDownInBackground() }
        let session = Session(
            configuration: .init(idleTimeout: Duration.seconds(10).scaled, transport: transport.makeTransport()))
        let url = server.url("/headers")
        #expect(url.absoluteString == "http://[::1]:\(server.port)/headers")

        // When
        let response = await session.get(url).serialized(by: .json).response

        // Then
        if transport.reachesIPv6LiteralHosts {
            let json = try #require(response.value)
            // RFC 9110 §7.2: the Host field of an IPv6 literal keeps its brackets.
            let headers = try #require(json["headers"]?.objectValue)
            let host = headers.first { $0.key.lowercased() == "host" }?.value.stringValue
            #expect(host == "[::1]:\(server.port)")
        } else {
            let error = try #require(response.error)
            #expect(error.reason == .transport(.unsupportedHost))
            #expect(
                error.localizedDescription
                    == "GET \(url.absoluteString) failed: URLSession on Linux (FoundationNetworking) cannot reach "
                    + "IPv6 literal hosts such as [::1].")
            #expect(
                error.recoverySuggestion
                    == "Use AsyncHTTPClientTransport (the package trait AsyncHTTPClient), "
                    + "or a host name that resolves to [::1].")
            #expect(server.requestCount == 0)
        }
    }

    @Test(.enabled(if: InteropServers.nginxIPv6 != nil), arguments: TransportKind.allCases)
    func nginxOnIPv6Loopback(transport: TransportKind) async throws {
        // Given nginx on [::1] and the same nginx on 127.0.0.1
        let ipv6 = try #require(InteropServers.nginxIPv6)
        let ipv4 = try #require(InteropServers.nginx)
        let session = Session(configuration: .init(transport: transport.makeTransport()))
        let expected = try await Session(configuration: .init(transport: URLSessionTransport()))
            .get(ipv4.appending(path: "array-10k.json")).serializingData()

        // When
        let response = await session.get(ipv6.appending(path: "array-10k.json")).response

        // Then
        if transport.reachesIPv6LiteralHosts {
            #expect(response.value == expected)
            #expect(response.response?.url.host == "::1")
        } else {
            #expect(response.error?.reason == .transport(.unsupportedHost))
            #expect(response.error?.localizedDescription.contains("cannot reach IPv6 literal hosts") == true)
        }
    }
}

/// Whether this machine can bind `::1` (containers sometimes disable IPv6).
enum IPv6Loopback {
    static let isAvailable: Bool = {
        guard let server = try? TestServer(host: "::1") else { return false }
        server.shutdown()
        return true
    }()
}
