@testable import Ferry
import Foundation
import Testing

/// What URLSession's TLS answers are made from, checked when the transport is made (on Apple platforms the
/// delegate then answers each challenge from it; FoundationNetworking sends none).
@Suite struct URLSessionTrustTests {
    static let root = TLSCertificate(pem: Data(PublicKeyPinTests.ec.utf8))

    @Test func aPolicyItCanHonourIsRead() throws {
        let pin = try TLSPolicy.PublicKeyPin(PublicKeyPinTests.ecPin)
        let policy = TLSPolicy(
            trustRoots: .systemAnd([Self.root]), minimumVersion: .tls1_3,
            perHost: [
                "*.pin.test": TLSPolicy(
                    trustRoots: .only([Self.root]), minimumVersion: .tls1_3, pinnedPublicKeys: [pin])
            ])
        let trust = try URLSessionTrust(policy: policy)
        let pinned = try trust.rules(for: "api.pin.test")
        #expect(pinned.policy.pinnedPublicKeys == [pin])
        #expect(pinned.anchors == [try PublicKeyPinTests.der(PublicKeyPinTests.ec)])
        #expect(!pinned.isSystemDefault)
        #expect(try trust.rules(for: "other.test").policy.pinnedPublicKeys.isEmpty)
        #expect(try URLSessionTrust(policy: .default).rules(for: "x").isSystemDefault)
    }

    @Test func aPEMClientIdentityIsRefusedWithTheWayToAPKCS12Bundle() {
        let identity = TLSClientIdentity.pem(certificateChain: Data(PublicKeyPinTests.ec.utf8), privateKey: Data())
        for policy in [
            TLSPolicy(clientIdentity: identity), TLSPolicy(perHost: ["x.test": TLSPolicy(clientIdentity: identity)]),
        ] {
            let error = #expect(throws: FerryError.self) { try URLSessionTrust(policy: policy) }
            #expect(error?.message.contains("a PEM TLSClientIdentity on URLSession") == true)
            #expect(error?.recoverySuggestion?.contains("openssl pkcs12 -export") == true)
        }
    }

    @Test func aPerHostMinimumVersionIsRefused() {
        let policy = TLSPolicy(perHost: ["old.test": TLSPolicy(minimumVersion: .tls1_3)])
        let error = #expect(throws: FerryError.self) { try URLSessionTrust(policy: policy) }
        #expect(error?.message.contains("TLSPolicy.minimumVersion for old.test") == true)
    }

    @Test func aCertificateThatCannotBeReadIsRefused() {
        let garbage = TLSCertificate(pem: Data("not a certificate".utf8))
        let error = #expect(throws: FerryError.self) {
            try URLSessionTrust(policy: TLSPolicy(perHost: ["x.test": TLSPolicy(trustRoots: .only([garbage]))]))
        }
        #expect(error?.message.contains("TLSPolicy.trustRoots") == true)
    }
}
