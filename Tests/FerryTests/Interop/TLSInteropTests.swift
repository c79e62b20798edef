@testable import Ferry
import Foundation
import Testing

#if AsyncHTTPClient
import AsyncHTTPClient
import NIOSSL
#endif

/// The TLS servers `scripts/servers.sh` starts: nginx, one server per certificate case, with certificates
/// `scripts/make-test-certificates.py` made for this run.
enum TLSServers {
    static let directory = InteropServers.environment["FERRY_TLS_DIR"].map { URL(fileURLWithPath: $0) }
    static let ports: [String: Int] = {
        guard let directory, let data = try? Data(contentsOf: directory.appending(path: "ports.json")) else {
            return [:]
        }
        return (try? JSONDecoder().decode([String: Int].self, from: data)) ?? [:]
    }()

    static var available: Bool { ports.count == 9 }

    /// `https://HOST:PORT/` of a case's server.
    static func url(_ name: String, host: String = "127.0.0.1") -> URL {
        URL(string: "https://\(host):\(ports[name]!)/")!
    }

    static func file(_ name: String) -> URL { directory!.appending(path: name) }
    static func data(_ name: String) throws -> Data { try Data(contentsOf: file(name)) }
    static func root() throws -> TLSCertificate { try TLSCertificate(file: file("root-ca.pem")) }
}

@Suite("TLS: nginx with certificates made for the run", .enabled(if: TLSServers.available))
struct TLSInteropTests {
    struct Answer: Decodable, Equatable {
        var tls: String
        var client: String
    }

    func fetch(_ url: URL, through transport: any Transport) async -> DataResponse<Data> {
        let session = Session(configuration: .init(idleTimeout: Duration.seconds(20).scaled, transport: transport))
        return await session.get(url).response
    }

    /// Both transports with their default policy: only the system's roots are trusted, so every server here, all
    /// signed by the run's own CA or by themselves, fails the same typed way.
    @Test(arguments: TransportKind.allCases)
    func theDefaultPolicyTrustsOnlyTheSystemsRoots(transport: TransportKind) async throws {
        for name in ["valid", "selfSigned", "expired"] {
            let response = await fetch(TLSServers.url(name), through: transport.makeTransport())
            #expect(response.error?.reason == .transport(.secureConnectionFailed), "\(name)")
        }
    }

    #if canImport(FoundationNetworking)
    @Test func urlSessionOnLinuxRefusesAPolicyItCannotHonour() throws {
        let root = try TLSServers.root()
        let pin = try TLSPolicy.PublicKeyPin(publicKeyOf: root)
        let identity = TLSClientIdentity.pkcs12(try TLSServers.data("client.p12"), password: "ferry")
        // Every setting of a policy, alone: each is refused, none is run without
        let policies = [
            TLSPolicy(trustRoots: .only([root])), TLSPolicy(trustRoots: .systemAnd([root])),
            TLSPolicy(pinnedPublicKeys: [pin]), TLSPolicy(clientIdentity: identity), TLSPolicy(minimumVersion: .tls1_3),
            TLSPolicy(serverVerification: .dangerouslyAcceptingAnyCertificate),
            TLSPolicy(perHost: ["localhost": TLSPolicy(minimumVersion: .tls1_3)]),
        ]
        for policy in policies {
            let error = #expect(throws: FerryError.self) { try URLSessionTransport(tls: policy) }
            #expect(error?.message == "The transport cannot honour a TLSPolicy on URLSession on Linux.")
            #expect(error?.recoverySuggestion?.contains("AsyncHTTPClientTransport") == true)
        }
        // The default policy is no setting at all: accepted.
        _ = try URLSessionTransport(tls: .default)
    }
    #endif

    /// Ferry reads each certificate's public key itself; `make-test-certificates.py` computed the same pins with
    /// Python's `cryptography`.
    @Test func theRunsCertificatesHaveThePinsAnotherLibraryComputes() throws {
        let expected = try JSONDecoder().decode([String: String].self, from: TLSServers.data("pins.json"))
        #expect(expected.count == 6)
        for (file, pin) in expected {
            let certificate = try TLSCertificate(file: TLSServers.file(file))
            #expect(try TLSPolicy.PublicKeyPin(publicKeyOf: certificate).description == pin, "\(file)")
        }
        // The chain nginx presents for "valid" (the leaf, then the intermediate) passes a pin on either, not on
        // another key.
        let presented = try #require(CertificateDER.certificates(inPEM: TLSServers.data("leaf.pem")))
        for file in ["leaf-alone.pem", "intermediate-ca.pem"] {
            let policy = TLSPolicy(pinnedPublicKeys: [try TLSPolicy.PublicKeyPin(expected[file] ?? "")])
            #expect(policy.pinFailure(host: "127.0.0.1", chain: presented) == nil, "\(file)")
        }
        let other = TLSPolicy(pinnedPublicKeys: [try TLSPolicy.PublicKeyPin(expected["selfsigned.pem"] ?? "")])
        #expect(other.pinFailure(host: "127.0.0.1", chain: presented)?.message.contains("127.0.0.1") == true)
    }

    @Test func perHostPoliciesPickTheMostSpecificEntry() {
        let strict = TLSPolicy(minimumVersion: .tls1_3)
        let loose = TLSPolicy(serverVerification: .dangerouslyAcceptingAnyCertificate)
        let policy = TLSPolicy(perHost: ["*.internal": strict, "*.dev.internal": loose, "api.internal": .default])
        #expect(policy.policy(for: "db.internal") == strict)
        #expect(policy.policy(for: "x.dev.internal") == loose)
        #expect(policy.policy(for: "API.internal") == .default)
        #expect(policy.policy(for: "internal") == .default)
        #expect(policy.policy(for: "other.test").perHost.isEmpty)
    }

    #if AsyncHTTPClient
    func transport(_ policy: TLSPolicy) throws -> AsyncHTTPClientTransport {
        try AsyncHTTPClientTransport(proxy: .direct, tls: policy)
    }

    @Test func aPrivateRootIsTrustedOnlyWhereThePolicySaysSo() async throws {
        let only = try transport(TLSPolicy(trustRoots: .only([try TLSServers.root()])))
        let answer = try await Session(configuration: .init(transport: only)).get(TLSServers.url("valid"))
            .serializingDecodable(Answer.self)
        #expect(answer.tls == "TLSv1.3")
        let added = try transport(TLSPolicy(trustRoots: .systemAnd([try TLSServers.root()])))
        #expect(await fetch(TLSServers.url("valid"), through: added).statusCode == 200)
        let addedDER = try transport(
            TLSPolicy(trustRoots: .systemAnd([TLSCertificate(der: try TLSServers.data("root-ca.der"))])))
        #expect(await fetch(TLSServers.url("valid"), through: addedDER).statusCode == 200)
        // DER works as PEM does.
        let der = try transport(TLSPolicy(trustRoots: .only([TLSCertificate(der: try TLSServers.data("root-ca.der"))])))
        #expect(await fetch(TLSServers.url("valid", host: "localhost"), through: der).statusCode == 200)
    }

    @Test(arguments: ["expired", "notYetValid", "selfSigned", "incompleteChain"])
    func aCertificateThatCannotBeVerifiedFailsTheHandshake(name: String) async throws {
        let trusting = try transport(TLSPolicy(trustRoots: .only([try TLSServers.root()])))
        let error = try #require(await fetch(TLSServers.url(name), through: trusting).error)
        #expect(error.reason == .transport(.secureConnectionFailed))
        #expect(error.message.contains("could not be verified"), "\(error.message)")
    }

    @Test func aCertificateForAnotherHostFailsUnlessVerificationIsDangerouslyOff() async throws {
        let trusting = try transport(TLSPolicy(trustRoots: .only([try TLSServers.root()])))
        let error = try #require(await fetch(TLSServers.url("wrongHost"), through: trusting).error)
        #expect(error.reason == .transport(.secureConnectionFailed))
        #expect(error.message.contains("does not name this host"), "\(error.message)")
        let anything = try transport(TLSPolicy(serverVerification: .dangerouslyAcceptingAnyCertificate))
        #expect(await fetch(TLSServers.url("wrongHost"), through: anything).statusCode == 200)
        #expect(await fetch(TLSServers.url("selfSigned"), through: anything).statusCode == 200)
    }

    @Test func aPerHostPolicyAppliesToItsHostOnly() async throws {
        let root = try TLSServers.root()
        let policy = TLSPolicy(
            trustRoots: .only([root]),
            perHost: ["localhost": TLSPolicy(serverVerification: .dangerouslyAcceptingAnyCertificate)])
        let both = try transport(policy)
        #expect(await fetch(TLSServers.url("wrongHost", host: "localhost"), through: both).statusCode == 200)
        #expect(
            await fetch(TLSServers.url("wrongHost"), through: both).error?.reason == .transport(.secureConnectionFailed)
        )
        #expect(await fetch(TLSServers.url("valid"), through: both).statusCode == 200)
    }

    @Test func aClientCertificateIsOfferedWhenTheServerAsks() async throws {
        let root = try TLSServers.root()
        let url = TLSServers.url("clientCertificateRequired")
        // Without one, nginx completes the handshake and answers 400 ("No required SSL certificate was sent").
        #expect(await fetch(url, through: try transport(TLSPolicy(trustRoots: .only([root])))).statusCode == 400)
        let pem = TLSClientIdentity.pem(
            certificateChain: try TLSServers.data("client.pem"), privateKey: try TLSServers.data("client.key"))
        let withPEM = try transport(TLSPolicy(trustRoots: .only([root]), clientIdentity: pem))
        let answer = try await Session(configuration: .init(transport: withPEM)).get(url)
            .serializingDecodable(Answer.self)
        #expect(answer.client == "CN=Ferry test client")
        // A PEM key encrypted with a password is read with it; with a wrong one the transport is refused when made.
        func encrypted(password: String) throws -> TLSPolicy {
            let identity = TLSClientIdentity.pem(
                certificateChain: try TLSServers.data("client.pem"),
                privateKey: try TLSServers.data("client-encrypted.key"), password: password)
            return TLSPolicy(trustRoots: .only([root]), clientIdentity: identity)
        }
        #expect(await fetch(url, through: try transport(encrypted(password: "ferry"))).statusCode == 200)
        #expect(throws: FerryError.self) { try transport(encrypted(password: "nope")) }
        let p12 = TLSClientIdentity.pkcs12(try TLSServers.data("client.p12"), password: "ferry")
        let withP12 = try transport(TLSPolicy(trustRoots: .only([root]), clientIdentity: p12))
        #expect(await fetch(url, through: withP12).statusCode == 200)
    }

    @Test func theMinimumVersionIsHonoured() async throws {
        let root = try TLSServers.root()
        let any = try transport(TLSPolicy(trustRoots: .only([root])))
        let session = Session(configuration: .init(transport: any))
        #expect(try await session.get(TLSServers.url("tls12Only")).serializingDecodable(Answer.self).tls == "TLSv1.2")
        #expect(try await session.get(TLSServers.url("tls13Only")).serializingDecodable(Answer.self).tls == "TLSv1.3")
        let modern = try transport(TLSPolicy(trustRoots: .only([root]), minimumVersion: .tls1_3))
        let error = try #require(await fetch(TLSServers.url("tls12Only"), through: modern).error)
        #expect(error.reason == .transport(.secureConnectionFailed))
        #expect(error.message.contains("no TLS version"), "\(error.message)")
    }

    @Test func aPerHostMinimumVersionAppliesToItsHostOnly() async throws {
        let root = try TLSServers.root()
        let policy = TLSPolicy(
            trustRoots: .only([root]),
            perHost: ["localhost": TLSPolicy(trustRoots: .only([root]), minimumVersion: .tls1_3)])
        let session = Session(configuration: .init(transport: try transport(policy)))
        // The session's own policy reaches the TLS 1.2 server by address; the host's entry refuses it by name
        let byAddress = try await session.get(TLSServers.url("tls12Only")).serializingDecodable(Answer.self)
        #expect(byAddress.tls == "TLSv1.2")
        let refused = await fetch(TLSServers.url("tls12Only", host: "localhost"), through: try transport(policy))
        let byName = try #require(refused.error)
        #expect(byName.reason == .transport(.secureConnectionFailed))
        #expect(byName.message.contains("no TLS version"), "\(byName.message)")
        let modern = try await session.get(TLSServers.url("tls13Only", host: "localhost"))
            .serializingDecodable(Answer.self)
        #expect(modern.tls == "TLSv1.3")
    }

    @Test func pinsAreRefusedWhenTheTransportIsMade() throws {
        let pin = try TLSPolicy.PublicKeyPin(publicKeyOf: TLSServers.root())
        for policy in [
            TLSPolicy(pinnedPublicKeys: [pin]),
            TLSPolicy(perHost: ["api.internal": TLSPolicy(pinnedPublicKeys: [pin])]),
        ] {
            let error = #expect(throws: FerryError.self) { try transport(policy) }
            #expect(error?.message.contains("TLSPolicy.pinnedPublicKeys on AsyncHTTPClientTransport") == true)
            #expect(error?.recoverySuggestion?.contains("trustRoots: .only") == true)
        }
    }

    @Test func aPolicyThatCannotBeReadIsRefusedWhenTheTransportIsMade() throws {
        let garbage = TLSPolicy(trustRoots: .only([TLSCertificate(pem: Data("not a certificate".utf8))]))
        let error = #expect(throws: FerryError.self) { try transport(garbage) }
        #expect(error?.reason.description.contains("TLSPolicy.trustRoots") == true)
        let wrongPassword = TLSPolicy(clientIdentity: .pkcs12(try TLSServers.data("client.p12"), password: "nope"))
        #expect(throws: FerryError.self) { try transport(wrongPassword) }
        let hidden = TLSPolicy(perHost: ["x": garbage])
        #expect(throws: FerryError.self) { try transport(hidden) }
        var configuration = AsyncHTTPClientTransport.defaultConfiguration
        configuration.tlsConfiguration = .makeClientConfiguration()
        #expect(throws: FerryError.self) {
            try AsyncHTTPClientTransport(configuration: configuration, tls: TLSPolicy(minimumVersion: .tls1_3))
        }
    }
    #endif
}
