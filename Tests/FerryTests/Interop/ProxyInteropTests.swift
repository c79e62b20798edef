@testable import Ferry
import Foundation
import Testing

#if AsyncHTTPClient
import AsyncHTTPClient
#endif

#if Logging
import Logging
#endif

/// The proxies `scripts/servers.sh` starts: pproxy (HTTP and SOCKS5 on one port) and tinyproxy (HTTP with
/// credentials `ferry:s3cret`).
enum ProxyServers {
    static let open = InteropServers.environment["FERRY_PROXY_URL"].flatMap(URL.init(string:))
    static let authenticated = InteropServers.environment["FERRY_PROXY_AUTH_URL"].flatMap(URL.init(string:))

    /// A loopback port nothing listens on: a request sent through a "proxy" there cannot connect.
    static let deadPort = 9

    static var available: Bool { open != nil && authenticated != nil && InteropServers.nginx != nil }
}

@Suite("Proxies: pproxy and tinyproxy on loopback", .enabled(if: ProxyServers.available))
struct ProxyInteropTests {
    let origin = InteropServers.nginx!.appending(path: "small.json")
    let proxyPort = ProxyServers.open!.port!
    let authPort = ProxyServers.authenticated!.port!

    /// An `https` URL is not needed to show the tunnel: the engine tunnels `http` too.
    func get(_ url: URL, through transport: any Transport) async -> DataResponse<Data> {
        let session = Session(configuration: .init(idleTimeout: Duration.seconds(20).scaled, transport: transport))
        return await session.get(url).response
    }

    #if AsyncHTTPClient
    /// A transport on `ProxyPolicy.environment` that reads `variables` instead of the process's environment.
    func environmentTransport(
        _ variables: [String: String],
        configuration: HTTPClient.Configuration = AsyncHTTPClientTransport.defaultConfiguration
    ) -> AsyncHTTPClientTransport {
        AsyncHTTPClientTransport(
            configuration: configuration, policy: .environment,
            environment: EnvironmentProxySettings(environment: variables))
    }

    @Test func anHTTPProxyCarriesTheRequestAndADeadOneFailsIt() async throws {
        let through = try AsyncHTTPClientTransport(proxy: .http(host: "127.0.0.1", port: proxyPort))
        #expect(await get(origin, through: through).statusCode == 200)
        // The same request with a dead proxy fails: the first one really went through the proxy.
        let dead = try AsyncHTTPClientTransport(proxy: .http(host: "127.0.0.1", port: ProxyServers.deadPort))
        #expect(await get(origin, through: dead).error?.reason == .transport(.cannotConnect))
    }

    @Test func aSOCKS5ProxyCarriesTheRequestAndADeadOneFailsIt() async throws {
        let through = try AsyncHTTPClientTransport(proxy: .socks5(host: "127.0.0.1", port: proxyPort))
        #expect(await get(origin, through: through).statusCode == 200)
        let dead = try AsyncHTTPClientTransport(proxy: .socks5(host: "127.0.0.1", port: ProxyServers.deadPort))
        #expect(await get(origin, through: dead).error?.reason == .transport(.cannotConnect))
    }

    @Test(.enabled(if: TLSServers.available))
    func anHTTPSOriginIsReachedThroughTheTunnelWithThePolicysTrust() async throws {
        let valid = TLSServers.url("valid")
        let trusting = TLSPolicy(trustRoots: .only([try TLSServers.root()]))
        let proxies: [ProxyPolicy] = [
            .http(host: "127.0.0.1", port: proxyPort), .socks5(host: "127.0.0.1", port: proxyPort),
        ]
        for proxy in proxies {
            // Given nginx over TLS behind the proxy, when the transport trusts the test root
            let through = try AsyncHTTPClientTransport(proxy: proxy, tls: trusting)
            let response = await get(valid, through: through)
            // Then the request goes through the tunnel and TLS runs end to end with the origin
            #expect(response.statusCode == 200, "\(proxy): \(String(describing: response.error))")
            // And without the root the origin's certificate is refused: the proxy did not answer in its place
            let system = try AsyncHTTPClientTransport(proxy: proxy)
            #expect(await get(valid, through: system).error?.reason == .transport(.secureConnectionFailed))
        }
    }

    @Test func theProxysCredentialsAreInNoDescriptionOfTheRequest() async throws {
        let transport = try AsyncHTTPClientTransport(
            proxy: .http(
                host: "127.0.0.1", port: authPort, credentials: .init(username: "ferry", password: "s3cret")))
        #if Logging
        let handler = RecordingLogHandler()
        let session = Session(
            configuration: .init(idleTimeout: Duration.seconds(20).scaled, transport: transport),
            logger: Logger(label: "proxy") { _ in handler })
        #else
        let session = Session(configuration: .init(idleTimeout: Duration.seconds(20).scaled, transport: transport))
        #endif
        // Given a request that went through the proxy with its credentials
        let response = await session.get(origin).response
        #expect(response.statusCode == 200)
        // Then neither the password nor the Basic value made of it is in any text that describes the request
        let basic = Data("ferry:s3cret".utf8).base64EncodedString()
        var texts = [
            String(decoding: response.har(), as: UTF8.self), session.cURLDescription(of: Request(url: origin)),
            String(describing: response), String(reflecting: response), String(describing: response.timeline),
            String(describing: transport),
        ]
        #if Logging
        try await waitUntil { !handler.records.isEmpty }
        texts += handler.records.map { "\($0.message) \($0.metadata)" }
        #endif
        for text in texts {
            #expect(!text.contains("s3cret") && !text.contains(basic), "\(text)")
        }
    }

    @Test func credentialsOpenTheProxyAndWrongOnesFailWithAClearError() async throws {
        let right = try AsyncHTTPClientTransport(
            proxy: .http(
                host: "127.0.0.1", port: authPort, credentials: .init(username: "ferry", password: "s3cret")))
        #expect(await get(origin, through: right).statusCode == 200)
        let wrong = try AsyncHTTPClientTransport(
            proxy: .http(host: "127.0.0.1", port: authPort, credentials: .init(username: "ferry", password: "nope")))
        let error = try #require(await get(origin, through: wrong).error)
        #expect(error.reason == .transport(.cannotConnect))
        // tinyproxy answers a CONNECT with wrong credentials 401, not 407: either way the message names the proxy.
        #expect(error.message.contains("the proxy refused"), "\(error.message)")
        #expect(!error.message.contains("nope"))
        let none = try AsyncHTTPClientTransport(proxy: .http(host: "127.0.0.1", port: authPort))
        #expect(await get(origin, through: none).error?.reason == .transport(.cannotConnect))
    }

    @Test(.enabled(if: InteropServers.httpbin != nil))
    func theCredentialsNeverReachTheOrigin() async throws {
        let transport = try AsyncHTTPClientTransport(
            proxy: .http(
                host: "127.0.0.1", port: authPort, credentials: .init(username: "ferry", password: "s3cret")))
        let session = Session(configuration: .init(idleTimeout: Duration.seconds(20).scaled, transport: transport))
        let json = try await session.get(InteropServers.httpbin!.appending(path: "headers")).serializingJSON()
        #expect(json["headers"]?["Host"] != nil)
        #expect(json["headers"]?["Proxy-Authorization"] == nil)
    }

    @Test func theEnvironmentPolicyReadsTheVariablesAsCurlDoes() async throws {
        let host = try #require(origin.host())
        let live = "http://127.0.0.1:\(proxyPort)"
        let dead = "http://127.0.0.1:\(ProxyServers.deadPort)"
        #expect(await get(origin, through: environmentTransport(["http_proxy": live])).statusCode == 200)
        // A dead proxy fails the request: the variable is used.
        #expect(await get(origin, through: environmentTransport(["http_proxy": dead])).error != nil)
        // Upper-case HTTP_PROXY is not read for http URLs, as curl: the request goes direct.
        #expect(await get(origin, through: environmentTransport(["HTTP_PROXY": dead])).statusCode == 200)
        // ALL_PROXY stands in, and NO_PROXY sends the listed host direct.
        #expect(await get(origin, through: environmentTransport(["ALL_PROXY": dead])).error != nil)
        #expect(
            await get(origin, through: environmentTransport(["ALL_PROXY": dead, "NO_PROXY": host])).statusCode == 200)
        #expect(
            await get(origin, through: environmentTransport(["http_proxy": dead, "no_proxy": "*"])).statusCode == 200)
        // An unusable variable fails the request, naming the variable and hiding the password.
        let error = try #require(
            await get(origin, through: environmentTransport(["http_proxy": "https://u:hidden@127.0.0.1:1"])).error)
        #expect(
            error.reason
                == .unsupportedSetting(
                    setting: "the proxy http_proxy=https://u:***@127.0.0.1:1", remedy: error.recoverySuggestion ?? ""))
        #expect(!error.message.contains("hidden"))
    }

    @Test(.enabled(if: TLSServers.available))
    func httpsURLsTakeHTTPSProxyFromTheEnvironment() async throws {
        var configuration = AsyncHTTPClientTransport.defaultConfiguration
        configuration.tlsConfiguration = try TLSPolicy(trustRoots: .only([try TLSServers.root()])).nioConfiguration()
        func transport(_ variables: [String: String]) -> AsyncHTTPClientTransport {
            environmentTransport(variables, configuration: configuration)
        }
        let valid = TLSServers.url("valid")
        let live = "http://127.0.0.1:\(proxyPort)"
        let dead = "http://127.0.0.1:\(ProxyServers.deadPort)"
        // HTTPS_PROXY (or https_proxy) carries an https request through the tunnel; a dead one fails it, so it was
        // used; http_proxy is not read for https URLs
        #expect(await get(valid, through: transport(["HTTPS_PROXY": live])).statusCode == 200)
        #expect(await get(valid, through: transport(["HTTPS_PROXY": dead])).error?.reason == .transport(.cannotConnect))
        #expect(await get(valid, through: transport(["https_proxy": dead])).error?.reason == .transport(.cannotConnect))
        #expect(await get(valid, through: transport(["http_proxy": dead])).statusCode == 200)
    }

    @Test func aProxyInTwoPlacesIsRefusedWhenTheTransportIsMade() throws {
        var configuration = AsyncHTTPClientTransport.defaultConfiguration
        configuration.proxy = .server(host: "127.0.0.1", port: proxyPort)
        #expect(throws: FerryError.self) { try AsyncHTTPClientTransport(configuration: configuration, proxy: .direct) }
        let error = #expect(throws: FerryError.self) {
            try AsyncHTTPClientTransport(proxy: .http(host: "127.0.0.1", port: 0))
        }
        #expect(error?.message.contains("port") == true)
    }
    #endif

    @Test func urlSessionOnLinuxRefusesAProxyItCannotUse() throws {
        #if canImport(FoundationNetworking)
        let error = #expect(throws: FerryError.self) {
            try URLSessionTransport(proxy: .http(host: "127.0.0.1", port: proxyPort))
        }
        #expect(
            error?.message
                == "The transport cannot honour the proxy http://127.0.0.1:\(proxyPort) on URLSession on Linux.")
        #expect(error?.recoverySuggestion?.contains("AsyncHTTPClientTransport") == true)
        #expect(throws: FerryError.self) { try URLSessionTransport(proxy: .socks5(host: "127.0.0.1", port: proxyPort)) }
        // Direct is honoured while the environment names no proxy, refused when it does (libcurl reads it).
        #expect(try URLSessionTransport.proxySettings(for: .direct, environment: .init(environment: [:])) == nil)
        let refused = #expect(throws: FerryError.self) {
            try URLSessionTransport.proxySettings(
                for: .direct, environment: .init(environment: ["HTTPS_PROXY": "http://127.0.0.1:1"]))
        }
        #expect(refused?.message.contains("HTTPS_PROXY") == true)
        #else
        _ = try URLSessionTransport(proxy: .http(host: "127.0.0.1", port: proxyPort))
        #endif
    }

    /// Both transports follow the environment by default: a dead `http_proxy` fails the same request on both, in a
    /// child process (the environment is the whole process's).
    @Test func bothTransportsFollowTheEnvironmentByDefault() async throws {
        let outcome = try await ChildProcess.runTests(
            matching: "ProxyEnvironmentProbe",
            environment: ["http_proxy": "http://127.0.0.1:\(ProxyServers.deadPort)", "no_proxy": ""])
        #expect(outcome.succeeded, "\(outcome.output.suffix(3000))")
        #expect(outcome.output.contains("Test run with 1 test"), "\(outcome.output.suffix(3000))")
    }
}

/// Runs only in the child process that ``ProxyInteropTests/bothTransportsFollowTheEnvironmentByDefault()`` starts,
/// with `http_proxy` naming a port nothing listens on.
@Suite(.enabled(if: ChildProcess.isProbe && ProxyServers.available, "runs only in a child process"))
struct ProxyEnvironmentProbe {
    @Test func theDefaultTransportsUseTheEnvironmentsProxy() async throws {
        let origin = InteropServers.nginx!.appending(path: "small.json")
        for kind in TransportKind.allCases {
            let session = Session(configuration: .init(transport: kind.makeTransport()))
            let response = await session.get(origin).response
            #expect(
                response.error?.reason == .transport(.cannotConnect), "\(kind): \(String(describing: response.error))")
        }
    }
}

@Suite("Proxy settings from the environment")
struct EnvironmentProxySettingsTests {
    func server(_ variables: [String: String], _ url: String) throws -> ProxyServer? {
        try EnvironmentProxySettings(environment: variables).server(for: URL(string: url)!)
    }

    @Test func eachSchemeReadsItsVariablesInCurlsOrder() throws {
        let both = ["http_proxy": "http://h:1", "HTTPS_PROXY": "http://s:2", "ALL_PROXY": "socks5h://a:3"]
        #expect(try server(both, "http://x/")?.host == "h")
        #expect(try server(both, "https://x/")?.host == "s")
        #expect(
            try server(["https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:1"], "https://x/")?.host
                == "lower")
        #expect(try server(["HTTP_PROXY": "http://h:1"], "http://x/") == nil)
        #expect(
            try server(["ALL_PROXY": "socks5h://a:3"], "http://x/") == ProxyServer(kind: .socks5, host: "a", port: 3))
        #expect(try server(["http_proxy": ""], "http://x/") == nil)
    }

    @Test func aValueIsAURLWithCurlsDefaults() throws {
        #expect(
            try server(["http_proxy": "proxy.local"], "http://x/")
                == ProxyServer(kind: .http, host: "proxy.local", port: 1080))
        #expect(
            try server(["http_proxy": "http://a%40b:p%3Aw@[::1]:3128"], "http://x/")
                == ProxyServer(
                    kind: .http, host: "::1", port: 3128, credentials: .init(username: "a@b", password: "p:w")))
        #expect(throws: FerryError.self) { try server(["http_proxy": "socks4://h:1"], "http://x/") }
        #expect(throws: FerryError.self) { try server(["http_proxy": "socks5://u:p@h:1"], "http://x/") }
        #expect(throws: FerryError.self) { try server(["http_proxy": "http://h:70000"], "http://x/") }
    }

    @Test func noProxyMatchesNamesSuffixesAddressesAndPrefixes() {
        let settings = EnvironmentProxySettings(
            environment: ["no_proxy": "example.com, .internal 10.0.0.0/8,fd00::/8 ::1", "NO_PROXY": "ignored.test"])
        for host in ["example.com", "API.example.com", "a.internal", "10.1.2.3", "fd00::5", "::1"] {
            #expect(settings.isExcluded(host), "\(host)")
        }
        for host in ["notexample.com", "ignored.test", "11.0.0.1", "fe80::1", "internal.org"] {
            #expect(!settings.isExcluded(host), "\(host)")
        }
        #expect(EnvironmentProxySettings(environment: ["NO_PROXY": "*"]).isExcluded("anything"))
    }

    @Test func descriptionsNeverShowAPassword() {
        let policy = ProxyPolicy.http(host: "p", port: 1, credentials: .init(username: "u", password: "secret"))
        #expect(!"\(policy)".contains("secret"))
        #expect("\(ProxyCredentials(username: "u", password: "secret"))" == "u:***")
        #expect(EnvironmentProxySettings.redacted("http://u:secret@h:1") == "http://u:***@h:1")
    }
}
