#if AsyncHTTPClient
import Foundation
import NIOSSL

extension TLSPolicy {
    /// This policy (without ``perHost``) as SwiftNIO SSL's client configuration.
    /// - Throws: ``FerryError/Reason/unsupportedSetting(setting:remedy:)`` when a certificate, key or bundle cannot
    ///   be read, or for ``pinnedPublicKeys``.
    func nioConfiguration() throws(FerryError) -> TLSConfiguration {
        guard pinnedPublicKeys.isEmpty else {
            throw FerryError(
                .unsupportedSetting(
                    setting: "TLSPolicy.pinnedPublicKeys on AsyncHTTPClientTransport",
                    remedy: "AsyncHTTPClient has no certificate verification callback, so Ferry cannot see the "
                        + "server's chain. Trust only your own CA instead (trustRoots: .only([…])), or use "
                        + "URLSessionTransport on Apple platforms, which honours pins."))
        }
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch trustRoots {
        case .system:
            break
        case .systemAnd(let certificates):
            configuration.additionalTrustRoots = [.certificates(try Self.parse(certificates))]
        case .only(let certificates):
            configuration.trustRoots = .certificates(try Self.parse(certificates))
        }
        configuration.minimumTLSVersion =
            switch minimumVersion {
            case .tls1_2: .tlsv12
            case .tls1_3: .tlsv13
            }
        configuration.certificateVerification =
            switch serverVerification {
            case .full: .fullVerification
            case .dangerouslyAcceptingAnyCertificate: .none
            }
        if let clientIdentity {
            let (chain, key) = try Self.parse(clientIdentity)
            configuration.certificateChain = chain.map { .certificate($0) }
            configuration.privateKey = .privateKey(key)
        }
        return configuration
    }

    private static func parse(_ certificates: [TLSCertificate]) throws(FerryError) -> [NIOSSLCertificate] {
        var parsed: [NIOSSLCertificate] = []
        for certificate in certificates {
            do {
                switch certificate.encoding {
                case .pem: parsed += try NIOSSLCertificate.fromPEMBytes(Array(certificate.bytes))
                case .der: parsed.append(try NIOSSLCertificate(bytes: Array(certificate.bytes), format: .der))
                }
            } catch {
                throw unreadable("a certificate of TLSPolicy.trustRoots", "It is not a PEM or DER certificate.")
            }
        }
        guard !parsed.isEmpty else {
            throw unreadable("TLSPolicy.trustRoots", "The PEM text holds no certificate.")
        }
        return parsed
    }

    private static func parse(
        _ identity: TLSClientIdentity
    ) throws(FerryError) -> (chain: [NIOSSLCertificate], key: NIOSSLPrivateKey) {
        switch identity {
        case .pem(let chainPEM, let keyPEM, let password):
            let chain: [NIOSSLCertificate]
            do {
                chain = try NIOSSLCertificate.fromPEMBytes(Array(chainPEM))
            } catch {
                throw unreadable("the client certificate chain", "It is not PEM certificate text.")
            }
            guard !chain.isEmpty else { throw unreadable("the client certificate chain", "It holds no certificate.") }
            do {
                let key: NIOSSLPrivateKey
                if let password {
                    key = try NIOSSLPrivateKey(bytes: Array(keyPEM), format: .pem) { setPassword in
                        setPassword(Array(password.utf8))
                    }
                } else {
                    key = try NIOSSLPrivateKey(bytes: Array(keyPEM), format: .pem)
                }
                return (chain, key)
            } catch {
                throw unreadable(
                    "the client private key", "It is not a PEM private key, or its password is wrong.")
            }
        case .pkcs12(let data, let password):
            do {
                let bundle = try NIOSSLPKCS12Bundle(buffer: Array(data), passphrase: Array(password.utf8))
                return (bundle.certificateChain, bundle.privateKey)
            } catch {
                throw unreadable("the client PKCS#12 bundle", "It is not PKCS#12, or its password is wrong.")
            }
        }
    }

    private static func unreadable(_ setting: String, _ why: String) -> FerryError {
        FerryError(.unsupportedSetting(setting: setting, remedy: why + " Check the file and its format."))
    }
}
#endif
