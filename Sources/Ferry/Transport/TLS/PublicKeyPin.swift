import Foundation

extension TLSPolicy {
    /// A public key that a server's certificate chain must contain: the SHA-256 of a certificate's
    /// SubjectPublicKeyInfo, written `sha256/` and its base64, as OkHttp's `CertificatePinner`, HPKP (RFC 7469) and
    /// curl's `--pinnedpubkey` write it.
    ///
    /// A policy with pins (``TLSPolicy/pinnedPublicKeys``) accepts a connection only when the chain is trusted and
    /// one of its certificates (the server's, an intermediate or the root) has one of the pinned keys. Pin a key
    /// you control and keep a backup pin for the key you will move to, or a key rotation locks your users out.
    /// Print a certificate's pin with
    /// `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`,
    /// or make it with ``init(publicKeyOf:)``.
    public struct PublicKeyPin: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The 32-byte SHA-256 of the SubjectPublicKeyInfo.
        public let sha256: Data

        /// A pin from its text, `sha256/` and the base64 of 32 bytes.
        /// - Parameter text: The pin, as `sha256/AbC…=`.
        /// - Throws: ``FerryError/Reason/unsupportedSetting(setting:remedy:)`` when it is not such a pin.
        public init(_ text: String) throws(FerryError) {
            guard text.hasPrefix("sha256/"), let hash = Data(base64Encoded: String(text.dropFirst(7))) else {
                throw Self.malformed(text)
            }
            try self.init(sha256: hash, text: text)
        }

        /// A pin from the hash itself.
        /// - Parameter sha256: The 32-byte SHA-256 of a SubjectPublicKeyInfo.
        /// - Throws: ``FerryError/Reason/unsupportedSetting(setting:remedy:)`` when it is not 32 bytes.
        public init(sha256: Data) throws(FerryError) {
            try self.init(sha256: sha256, text: "sha256/" + sha256.base64EncodedString())
        }

        /// The pin of a certificate's public key (the first certificate, when PEM text holds several).
        /// - Parameter certificate: The certificate.
        /// - Throws: ``FerryError/Reason/unsupportedSetting(setting:remedy:)`` when it cannot be read.
        public init(publicKeyOf certificate: TLSCertificate) throws(FerryError) {
            let der = try CertificateDER.certificates(in: certificate, for: "the certificate of a public key pin")
            try self.init(sha256: Self.hash(ofCertificate: der[0]) ?? Data())
        }

        private init(sha256: Data, text: String) throws(FerryError) {
            guard sha256.count == 32 else { throw Self.malformed(text) }
            self.sha256 = sha256
        }

        /// `sha256/` and the hash in base64.
        public var description: String { "sha256/" + sha256.base64EncodedString() }

        /// Orders pins by their text, so that lists of them read the same every time.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.description < rhs.description }

        /// The SHA-256 of a DER certificate's SubjectPublicKeyInfo, or `nil` when it is not a certificate.
        static func hash(ofCertificate der: Data) -> Data? {
            CertificateDER.subjectPublicKeyInfo(ofCertificate: der).map { Data(SHA256.digest([UInt8]($0))) }
        }

        private static func malformed(_ text: String) -> FerryError {
            FerryError(
                .unsupportedSetting(
                    setting: "the public key pin \"\(text.prefix(80))\"",
                    remedy: "Write a pin as sha256/ and the base64 of the 32-byte SHA-256 of a certificate's "
                        + "public key (SubjectPublicKeyInfo)."))
        }
    }

    /// Checks the certificates a connection to `host` ended with (DER, the server's first) against
    /// ``pinnedPublicKeys``; `nil` when there are no pins or one of them is in the chain.
    /// - Returns: The failure, naming the host, the pins and the keys seen, when no pinned key is in the chain.
    func pinFailure(host: String, chain: [Data]) -> FerryError? {
        guard !pinnedPublicKeys.isEmpty else { return nil }
        let seen = chain.map { PublicKeyPin.hash(ofCertificate: $0) }
        let hashes = Set(pinnedPublicKeys.map(\.sha256))
        if seen.contains(where: { $0.map(hashes.contains) ?? false }) { return nil }
        let pinned = pinnedPublicKeys.sorted().map(\.description).joined(separator: ", ")
        let presented = seen.map { $0.map { "sha256/" + $0.base64EncodedString() } ?? "(unreadable)" }
        let why =
            "no certificate in the chain of \(host) has a pinned public key (pinned: \(pinned); seen: "
            + (presented.isEmpty ? "no certificate" : presented.joined(separator: ", ")) + ")"
        return FerryError(.transport(.secureConnectionFailed), detail: .tlsFailed(why), underlyingError: nil)
    }
}
