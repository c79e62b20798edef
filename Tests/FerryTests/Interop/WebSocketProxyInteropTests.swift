#if WebSocket
@testable import Ferry
import Foundation
import Testing

/// WebSockets take the way the session's requests take: through the proxy the transport's policy names for the URL
/// (pproxy: HTTP `CONNECT` and SOCKS5 on one port; tinyproxy: HTTP with credentials `ferry:s3cret`), to the
/// `websockets` library's echo server. A dead proxy failing the same socket shows that a live one carried it.
@Suite(
    "WebSockets through proxies: pproxy and tinyproxy on loopback",
    .enabled(if: ProxyServers.available && WebSocketPeer.url != nil))
struct WebSocketProxyInteropTests {
    let proxyPort = ProxyServers.open!.port!
    let authPort = ProxyServers.authenticated!.port!

    /// A message sent on a new socket of a session on `transport`, as it came back.
    private func echo(_ transport: any Transport) async throws -> WebSocketMessage? {
        let session = Session(configuration: .init(idleTimeout: Duration.seconds(20).scaled, transport: transport))
        let socket = session.webSocket("\(WebSocketPeer.url!)/echo")
        try await socket.send(.text("through the proxy"))
        var messages = socket.messages.makeAsyncIterator()
        let answer = try await messages.next()
        await socket.close()
        #expect(await socket.closeFrame?.code == .normalClosure)
        return answer
    }

    private func failure(_ transport: any Transport) async -> FerryError? {
        do {
            _ = try await echo(transport)
            return nil
        } catch {
            return error as? FerryError
        }
    }

    /// A transport of `kind` whose ``ProxyPolicy/environment`` policy reads `variables`.
    private func transport(_ kind: TransportKind, environment variables: [String: String]) -> any Transport {
        let environment = EnvironmentProxySettings(environment: variables)
        switch kind {
        case .urlSession:
            return URLSessionTransport(proxyEnvironment: environment)
        #if AsyncHTTPClient
        case .asyncHTTPClient:
            return AsyncHTTPClientTransport(
                configuration: AsyncHTTPClientTransport.defaultConfiguration, policy: .environment,
                environment: environment)
        #endif
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theEnvironmentsProxyCarriesTheSocketAndNoProxyBypassesIt(kind: TransportKind) async throws {
        // Given the environment naming pproxy for http URLs (curl's lower-case name)
        let through = transport(kind, environment: ["http_proxy": "http://127.0.0.1:\(proxyPort)"])
        // Then the socket goes through it, and the same socket through a dead proxy fails
        #expect(try await echo(through) == .text("through the proxy"))
        let dead = transport(kind, environment: ["http_proxy": "http://127.0.0.1:\(ProxyServers.deadPort)"])
        #expect(await failure(dead)?.reason == .transport(.cannotConnect))
        // And NO_PROXY sends it around the dead proxy, directly
        let bypassed = transport(
            kind,
            environment: ["http_proxy": "http://127.0.0.1:\(ProxyServers.deadPort)", "NO_PROXY": "127.0.0.1"])
        #expect(try await echo(bypassed) == .text("through the proxy"))
    }

    @Test(arguments: TransportKind.allCases)
    func aSOCKS5ProxyFromTheEnvironmentCarriesTheSocket(kind: TransportKind) async throws {
        let through = transport(kind, environment: ["ALL_PROXY": "socks5h://127.0.0.1:\(proxyPort)"])
        #expect(try await echo(through) == .text("through the proxy"))
        let dead = transport(kind, environment: ["ALL_PROXY": "socks5h://127.0.0.1:\(ProxyServers.deadPort)"])
        #expect(await failure(dead)?.reason == .transport(.cannotConnect))
    }

    #if AsyncHTTPClient
    @Test func theTransportsPoliciesCarryTheSocket() async throws {
        let http = try AsyncHTTPClientTransport(proxy: .http(host: "127.0.0.1", port: proxyPort))
        #expect(try await echo(http) == .text("through the proxy"))
        let socks = try AsyncHTTPClientTransport(proxy: .socks5(host: "127.0.0.1", port: proxyPort))
        #expect(try await echo(socks) == .text("through the proxy"))
    }

    @Test func credentialsOpenTheTunnelAndWrongOnesFailNamingTheProxyNotThePassword() async throws {
        let right = try AsyncHTTPClientTransport(
            proxy: .http(
                host: "127.0.0.1", port: authPort, credentials: .init(username: "ferry", password: "s3cret")))
        #expect(try await echo(right) == .text("through the proxy"))
        let wrong = try AsyncHTTPClientTransport(
            proxy: .http(host: "127.0.0.1", port: authPort, credentials: .init(username: "ferry", password: "nope")))
        let error = try #require(await failure(wrong))
        #expect(error.reason == .transport(.cannotConnect))
        // tinyproxy answers a CONNECT with wrong credentials 401, not 407: either way the message names the proxy.
        #expect(error.message.contains("the proxy refused"), "\(error.message)")
        #expect(error.message.contains("127.0.0.1:\(authPort)"), "\(error.message)")
        #expect(!error.message.contains("nope") && !error.message.contains("s3cret"))
        let none = try AsyncHTTPClientTransport(proxy: .http(host: "127.0.0.1", port: authPort))
        #expect(await failure(none)?.reason == .transport(.cannotConnect))
    }

    @Test func aProxyOfTheClientsOwnConfigurationIsRefusedNotBypassed() async throws {
        var configuration = AsyncHTTPClientTransport.defaultConfiguration
        configuration.proxy = .server(host: "127.0.0.1", port: proxyPort)
        let error = await failure(AsyncHTTPClientTransport(configuration: configuration))
        guard case .unsupportedSetting(let setting, let remedy) = error?.reason else {
            Issue.record("expected unsupportedSetting, got \(String(describing: error))")
            return
        }
        #expect(setting.contains("proxy"))
        #expect(remedy.contains("ProxyPolicy"))
    }
    #endif
}
#endif
