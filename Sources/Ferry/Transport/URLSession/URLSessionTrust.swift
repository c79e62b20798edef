import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#else
import Security
#endif

/// How a URLSession transport answers TLS challenges for its ``TLSPolicy``: the policy is checked and its
/// certificates read when the transport is made, and on Apple platforms each server trust and client certificate
/// challenge is answered from it. FoundationNetworking sends no TLS challenge (the transport refuses a policy there).
struct URLSessionTrust: Sendable {
    /// One host's policy, read.
    struct Rules: Sendable {
        /// The host's policy (without ``TLSPolicy/perHost``).
        let policy: TLSPolicy
        /// The DER certificates a chain may end in besides (or instead of) the system's.
        let anchors: [Data]

        init(_ policy: TLSPolicy) throws(FerryError) {
            self.policy = policy
            var anchors: [Data] = []
            switch policy.trustRoots {
            case .system:
                break
            case .systemAnd(let certificates), .only(let certificates):
                guard !certificates.isEmpty else {
                    throw FerryError(
                        .unsupportedSetting(
                            setting: "TLSPolicy.trustRoots", remedy: "It lists no certificate: give at least one."))
                }
                for certificate in certificates {
                    anchors += try CertificateDER.certificates(
                        in: certificate, for: "a certificate of TLSPolicy.trustRoots")
                }
            }
            self.anchors = anchors
            if case .pem = policy.clientIdentity {
                throw FerryError(
                    .unsupportedSetting(
                        setting: "a PEM TLSClientIdentity on URLSession",
                        remedy: "URLSession offers a client certificate as a keychain identity, which Ferry makes "
                            + "from a PKCS#12 bundle: `openssl pkcs12 -export -in chain.pem -inkey key.pem -out "
                            + "client.p12`, then TLSClientIdentity.pkcs12(_:password:)."))
            }
        }

        /// Whether URLSession's own handling is this policy: the system's roots, full verification, no pins.
        var isSystemDefault: Bool {
            policy.trustRoots == .system && policy.serverVerification == .full && policy.pinnedPublicKeys.isEmpty
        }
    }

    /// The whole policy.
    let policy: TLSPolicy

    /// ``TLSPolicy/default``: URLSession's own handling.
    static let system = URLSessionTrust(default: ())

    private init(default: Void) {
        policy = .default
    }

    /// Reads `policy`.
    /// - Throws: ``FerryError/Reason/unsupportedSetting(setting:remedy:)`` for a certificate that cannot be read,
    ///   a PEM client identity, or a per-host minimum version other than the session's (URLSession sets it per
    ///   session).
    init(policy: TLSPolicy) throws(FerryError) {
        self.policy = policy
        let entries = [("", policy.policy(for: ""))] + policy.perHost.map { ($0.key, $0.value.policy(for: $0.key)) }
        for (host, entry) in entries {
            _ = try Rules(entry)
            #if !canImport(FoundationNetworking)
            if case .pkcs12(let bundle, let password)? = entry.clientIdentity,
                Self.importIdentity(bundle, password: password) == nil
            {
                throw Self.unreadableBundle
            }
            #endif
            guard entry.minimumVersion == policy.minimumVersion else {
                throw FerryError(
                    .unsupportedSetting(
                        setting: "TLSPolicy.minimumVersion for \(host) on URLSession",
                        remedy: "URLSession sets the oldest TLS version for a whole session. Give the hosts that "
                            + "need another one a transport of their own, or set it in the session's policy."))
            }
        }
    }

    /// The rules for connections to `host` (read again: a few certificates, once per connection).
    /// - Throws: Never for a policy ``init(policy:)`` accepted.
    func rules(for host: String) throws(FerryError) -> Rules {
        try Rules(policy.policy(for: host))
    }
}

#if !canImport(FoundationNetworking)
extension URLSessionTrust {
    /// What a TLS challenge gets.
    enum Answer {
        /// Hand this to the challenge's completion handler.
        case reply(URLSession.AuthChallengeDisposition, URLCredential?)
        /// Cancel the challenge; the request fails with this error.
        case refuse(FerryError)
    }

    /// The answer to a server trust or client certificate challenge; `nil` for any other challenge (HTTP
    /// authentication, which Ferry declines).
    func answer(_ challenge: URLAuthenticationChallenge) -> Answer? {
        let space = challenge.protectionSpace
        let host = space.host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        switch space.authenticationMethod {
        case NSURLAuthenticationMethodServerTrust:
            guard let trust = space.serverTrust else { return .reply(.performDefaultHandling, nil) }
            return evaluate(trust, host: host)
        case NSURLAuthenticationMethodClientCertificate:
            return identity(for: host)
        default:
            return nil
        }
    }

    /// Trusts the server as the host's rules say: their roots, then their pins.
    private func evaluate(_ trust: SecTrust, host: String) -> Answer {
        let rules: Rules
        do {
            rules = try self.rules(for: host)
        } catch {
            return .refuse(error)
        }
        if rules.isSystemDefault { return .reply(.performDefaultHandling, nil) }
        if rules.policy.serverVerification == .full {
            if !rules.anchors.isEmpty {
                let anchors = rules.anchors.compactMap { SecCertificateCreateWithData(nil, $0 as CFData) }
                SecTrustSetAnchorCertificates(trust, anchors as CFArray)
                SecTrustSetAnchorCertificatesOnly(trust, isOnly(rules))
            }
            var error: CFError?
            guard SecTrustEvaluateWithError(trust, &error) else {
                let why = error.map { ($0 as Error).localizedDescription } ?? "the chain is not trusted"
                return .refuse(
                    FerryError(
                        .transport(.secureConnectionFailed), detail: .tlsFailed(why), underlyingError: error))
            }
        }
        let certificates = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
        let chain = certificates.map { SecCertificateCopyData($0) as Data }
        if let failure = rules.policy.pinFailure(host: host, chain: chain) { return .refuse(failure) }
        return .reply(.useCredential, URLCredential(trust: trust))
    }

    /// The identity in a PKCS#12 bundle and the certificates that come with it (intermediates, without the
    /// identity's own), or `nil` when the bundle cannot be read with `password`.
    static func importIdentity(_ bundle: Data, password: String) -> (SecIdentity, [Any])? {
        var items: CFArray?
        let options = [kSecImportExportPassphrase as String: password] as CFDictionary
        guard SecPKCS12Import(bundle as CFData, options, &items) == errSecSuccess,
            let first = (items as? [[String: Any]])?.first, let found = first[kSecImportItemIdentity as String],
            CFGetTypeID(found as CFTypeRef) == SecIdentityGetTypeID()
        else { return nil }
        // A CF type cannot be checked with `as?`; its type ID was checked above.
        let identity = unsafeDowncast(found as AnyObject, to: SecIdentity.self)
        let chain = (first[kSecImportItemCertChain as String] as? [Any]) ?? []
        return (identity, Array(chain.dropFirst()))
    }

    static let unreadableBundle = FerryError(
        .unsupportedSetting(
            setting: "the client PKCS#12 bundle",
            remedy: "It is not PKCS#12, or its password is wrong. Check the file and its format."))

    private func isOnly(_ rules: Rules) -> Bool {
        if case .only = rules.policy.trustRoots { return true }
        return false
    }

    /// The host's client identity, from its PKCS#12 bundle; default handling (no certificate) when it has none.
    private func identity(for host: String) -> Answer {
        guard case .pkcs12(let bundle, let password)? = policy.policy(for: host).clientIdentity else {
            return .reply(.performDefaultHandling, nil)
        }
        guard let imported = Self.importIdentity(bundle, password: password) else {
            return .refuse(Self.unreadableBundle)
        }
        return .reply(
            .useCredential, URLCredential(identity: imported.0, certificates: imported.1, persistence: .forSession))
    }
}
#endif
