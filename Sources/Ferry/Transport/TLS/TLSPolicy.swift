import Foundation

/// How a transport's TLS connections decide whom to trust and how they identify themselves: one value, in Ferry's
/// words, for every transport.
///
/// The default (``default``) trusts the system's roots, verifies the server's certificate and host name, offers no
/// client certificate and accepts TLS 1.2 and later. A transport that cannot honour a policy refuses it when it is
/// made, with ``FerryError/Reason/unsupportedSetting(setting:remedy:)``: a request never runs without the policy it
/// was given. `AsyncHTTPClientTransport` honours all of it but ``pinnedPublicKeys`` (AsyncHTTPClient has no
/// verification callback); ``URLSessionTransport`` on Apple platforms honours all of it but a PEM client identity
/// (URLSession needs a PKCS#12 bundle) and a per-host minimum version other than the session's (URLSession has one
/// for the session), and on Linux only the default (FoundationNetworking has no trust or identity hook).
///
/// ```swift
/// let policy = TLSPolicy(
///     trustRoots: .systemAnd([try TLSCertificate(pemFile: URL(fileURLWithPath: "/etc/internal-ca.pem"))]),
///     clientIdentity: .pem(certificateChain: chain, privateKey: key))
/// let transport = try AsyncHTTPClientTransport(tls: policy)
/// ```
public struct TLSPolicy: Sendable, Hashable {
    /// Which certificate authorities a server's chain may end in.
    public enum TrustRoots: Sendable, Hashable {
        /// The system's roots.
        case system
        /// The system's roots and these certificates.
        case systemAnd([TLSCertificate])
        /// These certificates only (a private CA, a self-signed server).
        case only([TLSCertificate])
    }

    /// Whether the server's certificate is checked.
    public enum ServerVerification: Sendable, Hashable {
        /// The chain must end in a trusted root, be valid now and name the URL's host: the default.
        case full
        /// Anything the server presents is accepted, host name included. For development against a server
        /// whose certificate cannot be trusted, never in production: anyone on the path can read and change the
        /// traffic.
        case dangerouslyAcceptingAnyCertificate
    }

    /// The oldest TLS version a connection may use.
    public enum Version: Sendable, Hashable, Comparable {
        /// TLS 1.2 (RFC 5246).
        case tls1_2
        /// TLS 1.3 (RFC 8446).
        case tls1_3
    }

    /// Which certificate authorities a server's chain may end in; ``TrustRoots/system`` by default.
    public var trustRoots: TrustRoots
    /// The certificate and key offered when a server asks for one (mutual TLS); none by default.
    public var clientIdentity: TLSClientIdentity?
    /// The oldest TLS version a connection may use; TLS 1.2 by default.
    public var minimumVersion: Version
    /// Whether the server's certificate is checked; ``ServerVerification/full`` by default.
    public var serverVerification: ServerVerification
    /// Public keys of which the server's chain must contain one, checked after the chain is trusted; none (no
    /// pinning) by default. Give several (a backup pin) and set them per host with ``perHost``. With
    /// ``ServerVerification/dangerouslyAcceptingAnyCertificate`` they are checked against the certificates the server
    /// sends. Honoured by URLSession on Apple platforms; `AsyncHTTPClientTransport` refuses them (AsyncHTTPClient
    /// has no certificate verification callback).
    public var pinnedPublicKeys: Set<PublicKeyPin>
    /// Policies for some hosts instead of this one: a key is a host name (`api.internal`), an IP address, or a
    /// pattern for the subdomains of a name (`*.internal`, which does not match `internal` itself). An exact name
    /// wins over a pattern, a longer pattern over a shorter one.
    public var perHost: [String: TLSPolicy]

    /// Creates a policy.
    /// - Parameters:
    ///   - trustRoots: Which certificate authorities a server's chain may end in.
    ///   - clientIdentity: The certificate and key offered when a server asks for one.
    ///   - minimumVersion: The oldest TLS version a connection may use.
    ///   - serverVerification: Whether the server's certificate is checked.
    ///   - pinnedPublicKeys: Public keys of which the server's chain must contain one.
    ///   - perHost: Policies for some hosts instead of this one.
    public init(
        trustRoots: TrustRoots = .system, clientIdentity: TLSClientIdentity? = nil,
        minimumVersion: Version = .tls1_2, serverVerification: ServerVerification = .full,
        pinnedPublicKeys: Set<PublicKeyPin> = [], perHost: [String: TLSPolicy] = [:]
    ) {
        self.trustRoots = trustRoots
        self.clientIdentity = clientIdentity
        self.minimumVersion = minimumVersion
        self.serverVerification = serverVerification
        self.pinnedPublicKeys = pinnedPublicKeys
        self.perHost = perHost
    }

    /// The system's roots, full verification, no client certificate, TLS 1.2 and later.
    public static var `default`: TLSPolicy { TLSPolicy() }

    /// Whether this is ``default``, with no per-host policy.
    var isDefault: Bool { self == .default }

    /// The policy for connections to `host`: the most specific entry of ``perHost`` that matches, else this one
    /// (without its ``perHost``).
    /// - Parameter host: The URL's host, without brackets.
    public func policy(for host: String) -> TLSPolicy {
        if let entry = perHostPolicy(for: host) { return entry }
        var base = self
        base.perHost = [:]
        return base
    }

    /// The policy the most specific entry of ``perHost`` gives `host`, or `nil` when none matches.
    func perHostPolicy(for host: String) -> TLSPolicy? {
        guard !perHost.isEmpty else { return nil }
        let host = host.lowercased()
        if let exact = perHost.first(where: { $0.key.lowercased() == host }) { return exact.value.policy(for: host) }
        let patterns = perHost.filter { key, _ in
            key.hasPrefix("*.") && host.hasSuffix(key.dropFirst(1).lowercased())
        }
        return patterns.max(by: { $0.key.count < $1.key.count })?.value.policy(for: host)
    }
}

/// A certificate for ``TLSPolicy/TrustRoots``, as PEM text or DER bytes. Transports parse it when they are made,
/// and refuse a policy whose certificate they cannot read.
public struct TLSCertificate: Sendable, Hashable {
    /// How the bytes are encoded.
    public enum Encoding: Sendable, Hashable {
        /// `-----BEGIN CERTIFICATE-----` text; may hold several certificates.
        case pem
        /// One certificate in binary DER.
        case der
    }

    /// The certificate's bytes.
    public var bytes: Data
    /// How ``bytes`` are encoded.
    public var encoding: Encoding

    /// A certificate from PEM text (which may hold several).
    /// - Parameter pem: The PEM text.
    public init(pem: Data) {
        bytes = pem
        encoding = .pem
    }

    /// A certificate from DER bytes.
    /// - Parameter der: The DER bytes.
    public init(der: Data) {
        bytes = der
        encoding = .der
    }

    /// A certificate read from a PEM or DER file (PEM when the file starts with `-----BEGIN`).
    /// - Parameter file: The file.
    /// - Throws: ``FerryError/Reason/fileSystemFailed(_:)`` when it cannot be read.
    public init(file: URL) throws(FerryError) {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw FerryError(.fileSystemFailed("cannot read the certificate \(file.path)"), underlyingError: error)
        }
        bytes = data
        encoding = data.starts(with: Data("-----BEGIN".utf8)) ? .pem : .der
    }
}

/// The certificate and private key a client offers when a server asks for one (mutual TLS).
public enum TLSClientIdentity: Sendable, Hashable, CustomStringConvertible {
    /// A certificate chain (PEM, the client's certificate first) and its private key (PEM), the key encrypted
    /// with `password` when one is given.
    case pem(certificateChain: Data, privateKey: Data, password: String? = nil)
    /// A PKCS#12 bundle (`.p12`, `.pfx`) and its password.
    case pkcs12(Data, password: String)

    /// What kind of identity, without its key or password.
    public var description: String {
        switch self {
        case .pem: "PEM certificate chain and key"
        case .pkcs12: "PKCS#12 bundle"
        }
    }
}
