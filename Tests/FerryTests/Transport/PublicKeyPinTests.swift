@testable import Ferry
import Foundation
import Testing

/// Public key pins, computed without a network: SHA-256 itself, the SubjectPublicKeyInfo read out of certificates,
/// and the check of a chain. The pins expected below were printed by OpenSSL for the same certificates:
/// `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`.
@Suite struct PublicKeyPinTests {
    /// A self-signed RSA 2048 certificate (`openssl req -x509 -newkey rsa:2048 -subj /CN=pin.test`).
    static let rsa = """
        -----BEGIN CERTIFICATE-----
        MIIDCTCCAfGgAwIBAgIUDIX6WWgTRH4r4dXm7hIApUkQMA8wDQYJKoZIhvcNAQEL
        BQAwEzERMA8GA1UEAwwIcGluLnRlc3QwIBcNMjYxMTI4MDExOTQ5WhgPMjEyNjEx
        MDQwMTE5NDlaMBMxETAPBgNVBAMMCHBpbi50ZXN0MIIBIjANBgkqhkiG9w0BAQEF
        AAOCAQ8AMIIBCgKCAQEAoUP4EmsMu7DlS0G7B7Lgz0b4IrUdaCgeJkcz+9XekldV
        lJK7lHlUeWqxfzCWwPLDkqFapKpBbUXeXCMsSJzCiII+ifTr0QYsEvvhl3PNND6H
        cF5Z3sByys/i9ePvMFVncT69SyRU6IZP1aeW7UUEWpvQ6/ADbP2qTjuKTeyYulic
        vnOx8ziPjsSLXJ9nSniFyYQLAJ7oXBtnHnUugrBQ6W3ZpEbH87afMplmsoAcVda6
        z+AfUNdIrAOINdLn1ANJIllG4//wCFSe9actwWSG/R/q7/Ni81MY/zFEtZUzNaZd
        XUi4HmFX9i6vUC6ZHp1CvcUIGu7EfR1NaWjpTQHUWQIDAQABo1MwUTAdBgNVHQ4E
        FgQUXBH444tyrGRFdGZBsaE8fyAdeOQwHwYDVR0jBBgwFoAUXBH444tyrGRFdGZB
        saE8fyAdeOQwDwYDVR0TAQH/BAUwAwEB/zANBgkqhkiG9w0BAQsFAAOCAQEAlLKl
        Ba/XkytlF7TlFh/bSZKCcDqDclwyUs6IR0cJ7X6zlvdApKJqFE2sSceeJdGBaF7l
        eBVbDSs0ykZc3C6a81Y4vqgxHnbL9C8M8tOWpYBDJirIJldkd0h4K80FUeldgZEe
        uuzoFqkvYKd6sBSn1reK7X3uRFbZ39lObBCO+LMF7IsCyYTaWQUCsZdiFvccurYk
        uwjTT2StxzqtWc2P3YqIKfVNk3FQEJrGUJlJphPCEEaGLdIa7bgBgTidMkP0ux1w
        wx25Kizp9w9353Crtt3gkeV6chUknq5DZUEnSMf5yEf03atkih2YAKtW8q21+fI1
        ALScICiN/SBN2ToHpw==
        -----END CERTIFICATE-----
        """
    static let rsaPin = "sha256/uWwAF3bisgZxTOam23nauohCzm6OXiIOx8zvTMXkjYM="

    /// A self-signed P-256 certificate (`openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256`).
    static let ec = """
        -----BEGIN CERTIFICATE-----
        MIIBhDCCASmgAwIBAgIUMvOlusdmD1bggPNJ+4WZjCIdjfIwCgYIKoZIzj0EAwIw
        FjEUMBIGA1UEAwwLZWMucGluLnRlc3QwIBcNMjYxMTI4MDExOTQ5WhgPMjEyNjEx
        MDQwMTE5NDlaMBYxFDASBgNVBAMMC2VjLnBpbi50ZXN0MFkwEwYHKoZIzj0CAQYI
        KoZIzj0DAQcDQgAEUfcE3Ohqnwhgds0gQkH+FU8FIvwQsVu8ccGNZ1SusyUK5xK8
        KWHPwmVDUGrv2lnHKpAotV3e/gDaSRXW60va46NTMFEwHQYDVR0OBBYEFL4oQfzR
        OOBWa0WDSmm8xCVNMdmuMB8GA1UdIwQYMBaAFL4oQfzROOBWa0WDSmm8xCVNMdmu
        MA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSQAwRgIhALqv9q9WCGcb4jKz
        mlMNioFUzQAJeLl1n9/T81xL+rBtAiEAyeBk7v4II8VHlBETcncADQ5Knp2sP6mS
        ygtDioSKU7w=
        -----END CERTIFICATE-----
        """
    static let ecPin = "sha256/LTgZSOD9uoeH3cRyrMGBQihInUoCdlUS8GijdWYLSL4="

    static func der(_ pem: String) throws -> Data {
        try #require(CertificateDER.certificates(inPEM: Data(pem.utf8))?.first)
    }

    @Test(.ownThreads) func sha256MatchesTheStandardsVectors() {
        let vectors = [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                String(repeating: "a", count: 1_000_000),
                "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
            ),
        ]
        for (message, expected) in vectors {
            let hex = SHA256.digest(Array(message.utf8)).map { String(format: "%02x", $0) }.joined()
            #expect(hex == expected, "\(message.prefix(10))")
        }
    }

    @Test func aCertificatesPinIsTheHashOfItsPublicKey() throws {
        #expect(
            try TLSPolicy.PublicKeyPin(publicKeyOf: TLSCertificate(pem: Data(Self.rsa.utf8))).description == Self.rsaPin
        )
        #expect(
            try TLSPolicy.PublicKeyPin(publicKeyOf: TLSCertificate(der: Self.der(Self.ec))).description == Self.ecPin)
        #expect(
            try TLSPolicy.PublicKeyPin(Self.ecPin)
                == TLSPolicy.PublicKeyPin(publicKeyOf: TLSCertificate(pem: Data(Self.ec.utf8))))
    }

    @Test(arguments: [
        "uWwAF3bisgZxTOam23nauohCzm6OXiIOx8zvTMXkjYM=", "sha1/uWwAF3bisgZxTOam23nauohCzm6OXiIOx8zvTMXkjYM=",
        "sha256/uWwAF3bisgZxTOam23nauohCzm6OXiIOx8zvTMX", "sha256/not base64!", "sha256/", "",
    ])
    func aMalformedPinIsRefused(text: String) {
        let error = #expect(throws: FerryError.self) { try TLSPolicy.PublicKeyPin(text) }
        guard case .unsupportedSetting(let setting, let remedy)? = error?.reason else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(setting.contains("public key pin"))
        #expect(remedy.contains("sha256/"))
    }

    @Test func somethingThatIsNotACertificateHasNoPin() throws {
        let der = try Self.der(Self.rsa)
        for length in [0, 1, 2, 4, 10, 100, der.count / 2, der.count - 1] {
            #expect(CertificateDER.subjectPublicKeyInfo(ofCertificate: der.prefix(length)) == nil, "\(length)")
        }
        #expect(CertificateDER.subjectPublicKeyInfo(ofCertificate: der + Data([0])) == nil)
        #expect(CertificateDER.subjectPublicKeyInfo(ofCertificate: Data(repeating: 0x30, count: 64)) == nil)
        #expect(throws: FerryError.self) {
            try TLSPolicy.PublicKeyPin(publicKeyOf: TLSCertificate(der: Data("no".utf8)))
        }
        #expect(throws: FerryError.self) {
            try TLSPolicy.PublicKeyPin(publicKeyOf: TLSCertificate(pem: Data("no".utf8)))
        }
    }

    @Test func aChainPassesWhenAnyOfItsCertificatesIsPinned() throws {
        let chain = [try Self.der(Self.ec), try Self.der(Self.rsa)]
        let pinned = TLSPolicy(pinnedPublicKeys: [try .init(Self.rsaPin)])
        #expect(pinned.pinFailure(host: "pin.test", chain: chain) == nil)
        #expect(TLSPolicy().pinFailure(host: "pin.test", chain: []) == nil)
    }

    @Test func aBackupPinLetsTheChainPassAfterTheKeyChanged() throws {
        // Given the current key's pin and a backup for the key that will replace it
        let current = try TLSPolicy.PublicKeyPin(Self.rsaPin)
        let backup = try TLSPolicy.PublicKeyPin(Self.ecPin)
        let policy = TLSPolicy(pinnedPublicKeys: [current, backup])
        // Then a chain of the current key passes, a chain of the new one passes through the backup alone, and without
        // the backup the new key's chain fails
        #expect(policy.pinFailure(host: "pin.test", chain: [try Self.der(Self.rsa)]) == nil)
        #expect(policy.pinFailure(host: "pin.test", chain: [try Self.der(Self.ec)]) == nil)
        let currentOnly = TLSPolicy(pinnedPublicKeys: [current])
        #expect(currentOnly.pinFailure(host: "pin.test", chain: [try Self.der(Self.ec)]) != nil)
    }

    @Test func aChainWithoutAPinnedKeyFailsNamingTheHostThePinsAndTheKeysSeen() throws {
        let backup = try TLSPolicy.PublicKeyPin(sha256: Data(repeating: 7, count: 32))
        let policy = TLSPolicy(pinnedPublicKeys: [try .init(Self.rsaPin), backup])
        let failure = try #require(policy.pinFailure(host: "api.pin.test", chain: [try Self.der(Self.ec)]))
        #expect(failure.reason == .transport(.secureConnectionFailed))
        #expect(failure.message.contains("api.pin.test"))
        #expect(failure.message.contains(Self.rsaPin))
        #expect(failure.message.contains(backup.description))
        #expect(failure.message.contains("seen: \(Self.ecPin)"))
        #expect(policy.pinFailure(host: "api.pin.test", chain: [])?.message.contains("no certificate") == true)
    }

    @Test func pinsAreSetPerHostLikeTheRestOfThePolicy() throws {
        let pin = try TLSPolicy.PublicKeyPin(Self.ecPin)
        let policy = TLSPolicy(perHost: ["*.pin.test": TLSPolicy(pinnedPublicKeys: [pin])])
        #expect(policy.policy(for: "api.pin.test").pinnedPublicKeys == [pin])
        #expect(policy.policy(for: "other.test").pinnedPublicKeys.isEmpty)
    }

    @Test func pemTextWithSeveralCertificatesGivesEachInOrder() throws {
        let both = try #require(CertificateDER.certificates(inPEM: Data((Self.ec + "\n" + Self.rsa).utf8)))
        #expect(both == [try Self.der(Self.ec), try Self.der(Self.rsa)])
        #expect(
            CertificateDER.certificates(inPEM: Data("-----BEGIN CERTIFICATE-----\n!!\n-----END CERTIFICATE-----".utf8))
                == nil)
        #expect(CertificateDER.certificates(inPEM: Data("no certificate".utf8)) == [])
    }
}
