import Foundation
import Testing

/// The built `ferry` run with `--proxy`, `--unix-socket` and the TLS flags, against the servers of
/// `scripts/servers.sh`. Built with the `AsyncHTTPClient` trait (as the trait suites' `ferry` is) every flag works;
/// without it, URLSession refuses them before anything is sent, and the hint says how to build `ferry`.
@Suite("ferry: proxies, Unix sockets and TLS flags", .serialized, .timeLimit(.minutes(2)))
struct FerryBinaryConnectionTests {
    let nginx = InteropServers.nginx?.appending(path: "small.json").absoluteString ?? "http://127.0.0.1:1/"

    @Test func aMalformedPinIsAUsageErrorAPinNoTransportHereHonoursIsRefusedAndAKeyNeedsItsCertificate()
        async throws
    {
        let malformed = try await FerryBinary.run(["--pin", "sha256/AAAA", nginx])
        #expect(malformed.status == 2)
        #expect(malformed.err.contains("--pin takes sha256/"), "\(malformed.err)")
        let pin = "sha256/" + Data(repeating: 1, count: 32).base64EncodedString()
        let refused = try await FerryBinary.run(["--pin", pin, nginx.replacingOccurrences(of: "http:", with: "https:")])
        #expect(refused.status != 0)
        #if AsyncHTTPClient
        #expect(refused.err.contains("TLSPolicy.pinnedPublicKeys on AsyncHTTPClientTransport"), "\(refused.err)")
        #else
        #expect(refused.err.contains("TLSPolicy on URLSession on Linux"), "\(refused.err)")
        #endif
        let key = try await FerryBinary.run(["--key", "/dev/null", nginx])
        #expect(key.status == 2)
        #expect(key.err.contains("--key goes with --cert"), "\(key.err)")
        let proxy = try await FerryBinary.run(["--proxy", "socks4://127.0.0.1:1", nginx])
        #expect(proxy.status == 2)
        #expect(proxy.err.contains("socks4"), "\(proxy.err)")
    }

    #if AsyncHTTPClient
    @Test(.enabled(if: ProxyServers.available))
    func aProxyCarriesTheRequestAndADeadOneFailsIt() async throws {
        let through = try await FerryBinary.run(["-b", "--proxy", ProxyServers.open!.absoluteString, nginx])
        #expect(through.status == 0, "\(through.err)")
        #expect(through.out.contains("\"name\""))
        let socks = "socks5://127.0.0.1:\(ProxyServers.open!.port!)"
        #expect(try await FerryBinary.run(["-b", "--proxy", socks, nginx]).status == 0)
        let dead = try await FerryBinary.run(["--proxy", "http://127.0.0.1:\(ProxyServers.deadPort)", nginx])
        #expect(dead.status == 1, "\(dead.err)")
        let credentials = try await FerryBinary.run([
            "-b", "--proxy", ProxyServers.authenticated!.absoluteString, nginx,
        ])
        #expect(credentials.status == 0, "\(credentials.err)")
        #expect(!credentials.err.contains("s3cret"))
    }

    @Test(.enabled(if: InteropServers.environment["FERRY_NGINX_SOCKET"] != nil))
    func aUnixSocketIsReached() async throws {
        let socket = InteropServers.environment["FERRY_NGINX_SOCKET"]!
        let run = try await FerryBinary.run(["-b", "--unix-socket", socket, "http://localhost/small.json"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("\"name\""))
    }

    @Test(.enabled(if: TLSServers.available))
    func theTLSFlagsTrustAuthenticateAndOptOut() async throws {
        let root = TLSServers.file("root-ca.pem").path
        let valid = try await FerryBinary.run(["-b", "--cacert", root, TLSServers.url("valid").absoluteString])
        #expect(valid.status == 0, "\(valid.err)")
        let untrusted = try await FerryBinary.run(["-b", TLSServers.url("valid").absoluteString])
        #expect(untrusted.status == 1)
        #expect(untrusted.err.contains("secure connection"), "\(untrusted.err)")
        let mutual = try await FerryBinary.run([
            "-b", "--cacert", root, "--cert", TLSServers.file("client.pem").path, "--key",
            TLSServers.file("client.key").path, TLSServers.url("clientCertificateRequired").absoluteString,
        ])
        #expect(mutual.status == 0, "\(mutual.err)")
        #expect(mutual.out.contains("CN=Ferry test client"), "\(mutual.out)")
        let insecure = try await FerryBinary.run(["-b", "--no-verify", TLSServers.url("selfSigned").absoluteString])
        #expect(insecure.status == 0, "\(insecure.err)")
        // `--verify` after `--no-verify` checks the certificate again: the later flag wins
        let verified = try await FerryBinary.run([
            "-b", "--no-verify", "--verify", TLSServers.url("selfSigned").absoluteString,
        ])
        #expect(verified.status == 1)
        #expect(verified.err.contains("secure connection"), "\(verified.err)")
    }
    #else
    @Test func urlSessionRefusesTheFlagsBeforeSendingAndSaysHowToBuildFerry() async throws {
        for flags in [["--proxy", "http://127.0.0.1:1"], ["--unix-socket", "/tmp/none.sock"], ["--no-verify"]] {
            let run = try await FerryBinary.run(flags + [nginx])
            #expect(run.status == 2, "\(flags): \(run.err)")
            #expect(run.err.contains("cannot honour"), "\(flags): \(run.err)")
            #expect(run.err.contains("--traits AsyncHTTPClient"), "\(flags): \(run.err)")
        }
        // `--verify` asks for what URLSession does anyway: nothing to refuse (nginx answers when it runs)
        let verified = try await FerryBinary.run(["-b", "--verify", nginx])
        #expect(verified.status == (InteropServers.nginx == nil ? 1 : 0), "\(verified.err)")
    }
    #endif
}
