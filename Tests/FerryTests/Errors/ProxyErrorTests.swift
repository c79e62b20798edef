@testable import Ferry
import Foundation
import Testing

/// A connection that failed through a proxy, said as the proxy's: what `reachingProxy` and `timingOutThrough` make of
/// a transport's errors, and the messages that come of it.
@Suite("Errors through a proxy")
struct ProxyErrorTests {
    private let http = ProxyServer(kind: .http, host: "127.0.0.1", port: 3128)
    private let socks = ProxyServer(kind: .socks5, host: "proxy.test", port: 1080)

    private func failure(_ reason: FerryError.Reason, detail: FerryError.Detail?) -> FerryError {
        var error = FerryError(reason, request: Request(.get, url: URL(string: "http://example.com/x")!))
        error.detail = detail
        return error
    }

    @Test func aRefusedConnectionIsTheProxysAndTheMessageNamesIt() {
        // Given a refused connection, as a transport maps it, for a request through an HTTP proxy
        let error = failure(.transport(.cannotConnect), detail: .connectionRefused).reachingProxy(http)
        // Then the reason stays, and the message and the advice are about the proxy, not example.com
        #expect(error.reason == .transport(.cannotConnect))
        #expect(
            error.localizedDescription
                == "GET http://example.com/x failed: could not reach the proxy http://127.0.0.1:3128: connection refused."
        )
        #expect(error.recoverySuggestion?.hasPrefix("Check that the proxy is running at that address") == true)
    }

    @Test func aProxyNameThatDoesNotResolveIsStillHostNotFound() {
        // Given a name that did not resolve through a SOCKS5 proxy, which resolves the server's name itself
        let error = failure(.transport(.hostNotFound), detail: nil).reachingProxy(socks)
        // Then it is still a host not found (what a retrier or a caller switches on), and it names the proxy
        #expect(error.reason == .transport(.hostNotFound))
        #expect(
            error.localizedDescription.contains("could not reach the proxy socks5://proxy.test:1080: its host name"))
        #expect(!error.localizedDescription.contains("example.com:80"))
    }

    @Test(
        arguments: [
            (FerryError.Reason.transport(.cannotConnect), FerryError.Detail.proxyFailed("the proxy refused")),
            (.transport(.connectionLost), .connectionReset), (.transport(.secureConnectionFailed), nil),
            (.timedOut(.idle), nil),
        ] as [(FerryError.Reason, FerryError.Detail?)])
    func anyOtherErrorIsLeftAsItIs(reason: FerryError.Reason, detail: FerryError.Detail?) {
        // Given an error that is not a failed connection to the proxy (the proxy's own answer, or what came after)
        let error = failure(reason, detail: detail)
        // Then neither restatement changes it
        #expect(error.reachingProxy(http).localizedDescription == error.localizedDescription)
        #expect(error.timingOutThrough(http).localizedDescription == error.localizedDescription)
    }

    @Test func aTimeoutThroughTheProxyBlamesNeitherOneAlone() {
        // Given a connect timeout from an engine whose one deadline covers the proxy's answer and the server's TLS
        let error = failure(.transport(.cannotConnect), detail: .connectTimedOut).timingOutThrough(http)
        // Then the message says the proxy or the server behind it did not answer in time
        #expect(error.reason == .transport(.cannotConnect))
        #expect(
            error.localizedDescription.contains(
                "the proxy, or the server behind it, did not answer in time (http://127.0.0.1:3128)"))
    }

    @Test func aUnixSocketIsNeverReachedThroughAProxy() throws {
        let policy = ProxyPolicy.http(host: "127.0.0.1", port: 3128)
        let environment = EnvironmentProxySettings(environment: [:])
        #expect(try policy.server(for: URL(string: "http+unix://%2Ftmp%2Fs.sock/x")!, environment: environment) == nil)
        #expect(try policy.server(for: URL(string: "http://example.com/x")!, environment: environment) != nil)
    }
}
