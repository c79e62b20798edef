import Foundation

/// The little of X.509 that Ferry reads itself: certificates out of PEM text, and a certificate's
/// SubjectPublicKeyInfo (RFC 5280 §4.1) for ``TLSPolicy/PublicKeyPin``. Everything else about a certificate is the
/// engine's business.
enum CertificateDER {
    /// The DER bytes of every `CERTIFICATE` block in PEM text, in order; `nil` when a block's base64 is broken.
    static func certificates(inPEM pem: Data) -> [Data]? {
        let text = String(decoding: pem, as: UTF8.self)
        var found: [Data] = []
        var rest = text[...]
        while let begin = rest.range(of: "-----BEGIN CERTIFICATE-----") {
            guard let end = rest[begin.upperBound...].range(of: "-----END CERTIFICATE-----") else { return nil }
            let base64 = rest[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
            guard let der = Data(base64Encoded: String(base64)) else { return nil }
            found.append(der)
            rest = rest[end.upperBound...]
        }
        return found
    }

    /// The DER bytes of each certificate `certificate` holds (PEM text may hold several).
    /// - Throws: ``FerryError/Reason/unsupportedSetting(setting:remedy:)`` naming `setting` when none can be read.
    static func certificates(in certificate: TLSCertificate, for setting: String) throws(FerryError) -> [Data] {
        let found: [Data]
        switch certificate.encoding {
        case .der: found = [certificate.bytes]
        case .pem: found = certificates(inPEM: certificate.bytes) ?? []
        }
        guard !found.isEmpty, found.allSatisfy({ subjectPublicKeyInfo(ofCertificate: $0) != nil }) else {
            throw FerryError(
                .unsupportedSetting(
                    setting: setting,
                    remedy: "It is not a PEM or DER certificate. Check the file and its format."))
        }
        return found
    }

    /// The whole SubjectPublicKeyInfo element (tag and length included) of a DER certificate, or `nil` when the
    /// bytes are not one.
    static func subjectPublicKeyInfo(ofCertificate der: Data) -> Data? {
        var reader = Reader(bytes: [UInt8](der))
        // Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }
        guard var certificate = reader.enter(tag: 0x30), reader.isAtEnd,
            var tbs = certificate.enter(tag: 0x30)
        else { return nil }
        // TBSCertificate ::= SEQUENCE { [0] version OPTIONAL, serialNumber, signature, issuer, validity, subject,
        // subjectPublicKeyInfo, … }
        if tbs.peekTag == 0xA0 { guard tbs.skip() else { return nil } }
        for tag: UInt8 in [0x02, 0x30, 0x30, 0x30, 0x30] {
            guard tbs.peekTag == tag, tbs.skip() else { return nil }
        }
        guard tbs.peekTag == 0x30, let element = tbs.element() else { return nil }
        return Data(element)
    }

    /// Reads DER elements (tag, length, contents) from bytes, refusing lengths that run past the end.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0
        var end: Int

        init(bytes: [UInt8], position: Int = 0, end: Int? = nil) {
            self.bytes = bytes
            self.position = position
            self.end = end ?? bytes.count
        }

        var isAtEnd: Bool { position == end }
        var peekTag: UInt8? { position < end ? bytes[position] : nil }

        /// The next element's header: where its contents start and end.
        private func header() -> (contents: Int, end: Int)? {
            guard position + 2 <= end else { return nil }
            let first = Int(bytes[position + 1])
            var at = position + 2
            var length = 0
            if first < 0x80 {
                length = first
            } else {
                let count = first & 0x7F
                guard (1...4).contains(count), at + count <= end else { return nil }
                for _ in 0..<count {
                    length = length << 8 | Int(bytes[at])
                    at += 1
                }
            }
            guard length <= end - at else { return nil }
            return (at, at + length)
        }

        /// The next element, which must have `tag`, as a reader of its contents; this reader moves past it.
        mutating func enter(tag: UInt8) -> Reader? {
            guard peekTag == tag, let (contents, elementEnd) = header() else { return nil }
            position = elementEnd
            return Reader(bytes: bytes, position: contents, end: elementEnd)
        }

        /// Moves past the next element; `false` when it is malformed.
        mutating func skip() -> Bool {
            guard let (_, elementEnd) = header() else { return false }
            position = elementEnd
            return true
        }

        /// The next element's bytes, header included; this reader moves past it.
        mutating func element() -> ArraySlice<UInt8>? {
            let start = position
            guard skip() else { return nil }
            return bytes[start..<position]
        }
    }
}
