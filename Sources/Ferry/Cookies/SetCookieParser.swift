import Foundation

/// Turns one `Set-Cookie` field value into the ``Cookie`` to store, following RFC 6265 §5.2 (parsing) and §5.3
/// (which cookies a response may set), with the stricter rules of RFC 6265bis.
///
/// A pure function of its input: any bytes, of any length, give a cookie or `nil`, and never trap. Work is linear in
/// the length of the value.
struct SetCookieParser {
    /// The longest attribute value read (RFC 6265bis): a longer one is ignored, as if absent.
    static let maximumAttributeValueSize = 1024
    /// The longest path or domain a stored cookie may have.
    static let maximumPathSize = 1024

    /// The cookie `field` sets for a response to `url`, or `nil` when the field must be ignored: no `=` in its
    /// first part, an empty name, control characters, a name and value longer than `maximumSize`, a `Domain` the
    /// request's host is not in (or a single label such as `com`), `Secure` from an insecure origin, or a broken
    /// `__Secure-`/`__Host-` prefix rule.
    ///
    /// A cookie that `Max-Age=0` (or less) or an `Expires` in the past deletes is returned, already expired.
    /// - Parameters:
    ///   - field: The `Set-Cookie` field value.
    ///   - url: The URL of the request the response answers.
    ///   - now: The current time, for `Max-Age` and the creation date.
    ///   - maximumSize: The most bytes the name and value may have together.
    /// - Returns: The cookie, or `nil`.
    static func cookie(from field: String, url: URL, now: Date, maximumSize: Int = 4096) -> Cookie? {
        guard let origin = CookieOrigin(url) else { return nil }
        let bytes = Array(field.utf8)
        let pairEnd = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        let pair = bytes[..<pairEnd]
        guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let name = trimmed(pair[..<equals])
        let value = trimmed(pair[(equals + 1)...])
        guard !name.isEmpty, name.count + value.count <= maximumSize, !name.contains(where: isControl),
            !value.contains(where: isControl)
        else { return nil }
        let attributes = Attributes(bytes[pairEnd...], origin: origin, now: now)
        return attributes.cookie(
            name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self),
            origin: origin, now: now)
    }

    /// The attributes after the name and value, the last of each name winning.
    struct Attributes {
        var expires: Date?
        var maxAge: Date?
        var domain: String?
        var path: String?
        var isSecure = false
        var isHTTPOnly = false
        var sameSite: Cookie.SameSite?

        /// Reads `bytes`: `; name=value; flag; …` (starting with the `;` after the name and value, or empty).
        init(_ bytes: ArraySlice<UInt8>, origin: CookieOrigin, now: Date) {
            var rest = bytes
            while rest.first == UInt8(ascii: ";") {
                rest = rest.dropFirst()
                let end = rest.firstIndex(of: UInt8(ascii: ";")) ?? rest.endIndex
                read(rest[..<end], origin: origin, now: now)
                rest = rest[end...]
            }
        }

        /// Reads one `name=value` or `flag`; an unknown name, or a value that is too long or invalid, is ignored.
        private mutating func read(_ attribute: ArraySlice<UInt8>, origin: CookieOrigin, now: Date) {
            let equals = attribute.firstIndex(of: UInt8(ascii: "=")) ?? attribute.endIndex
            let rawName = trimmed(attribute[..<equals])
            let value = trimmed(attribute[equals...].dropFirst())
            // No attribute name is longer than "samesite": skip the lowering copy for anything longer.
            guard rawName.count <= 8, value.count <= SetCookieParser.maximumAttributeValueSize else { return }
            switch CookieOrigin.asciiLowercased(rawName) {
            case "expires":
                if let date = CookieDate.parse(value) { expires = date }
            case "max-age":
                if let seconds = SetCookieParser.deltaSeconds(value) {
                    maxAge = seconds > 0 ? now.addingTimeInterval(TimeInterval(seconds)) : .distantPast
                }
            case "domain":
                // An empty Domain is ignored; a leading dot is dropped (`.example.com` is `example.com`).
                var domain = value
                if domain.first == UInt8(ascii: ".") { domain = domain.dropFirst() }
                if !domain.isEmpty { self.domain = CookieOrigin.asciiLowercased(domain) }
            case "path":
                path =
                    value.first == UInt8(ascii: "/") ? String(decoding: value, as: UTF8.self) : origin.defaultPath
            case "secure":
                isSecure = true
            case "httponly":
                isHTTPOnly = true
            case "samesite":
                sameSite = Cookie.SameSite(attributeValue: String(decoding: value, as: UTF8.self))
            default:
                break
            }
        }

        /// The cookie these attributes make for `origin`, or `nil` when the origin may not set it (§5.3).
        func cookie(name: String, value: String, origin: CookieOrigin, now: Date) -> Cookie? {
            var domain = origin.host
            var isHostOnly = true
            if let attribute = self.domain, attribute != origin.host {
                // Without a public suffix list, a single label (`com`, `localhost`) stands for a public suffix; an
                // IP address is matched only by itself. Either one set as Domain by another host is refused.
                guard !origin.isIPAddress, attribute.utf8.contains(UInt8(ascii: ".")),
                    origin.domainMatches(attribute)
                else { return nil }
                domain = attribute
                isHostOnly = false
            } else if self.domain != nil, !origin.isIPAddress, origin.host.utf8.contains(UInt8(ascii: ".")) {
                isHostOnly = false
            }
            let path = self.path ?? origin.defaultPath
            guard path.utf8.count <= SetCookieParser.maximumPathSize,
                domain.utf8.count <= SetCookieParser.maximumPathSize
            else { return nil }
            // A plain-HTTP origin cannot set a Secure cookie (RFC 6265bis §5.7).
            if isSecure, !origin.isSecure { return nil }
            guard SetCookieParser.satisfiesPrefix(of: name, isSecure: isSecure, isHostOnly: isHostOnly, path: path)
            else { return nil }
            return Cookie(
                name: name, value: value, domain: domain, path: path, expires: maxAge ?? expires, isSecure: isSecure,
                isHTTPOnly: isHTTPOnly, sameSite: sameSite, isHostOnly: isHostOnly, creationDate: now)
        }
    }

    /// `Max-Age`'s value (RFC 6265 §5.2.2): an optional `-` and digits; `nil` for anything else. A number too large
    /// for an `Int64` is clamped, as is anything beyond about 31,000 years.
    static func deltaSeconds(_ value: ArraySlice<UInt8>) -> Int64? {
        var digits = value
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        let limit: Int64 = 1_000_000_000_000
        var seconds: Int64 = 0
        for digit in digits {
            seconds = min(limit, seconds * 10 + Int64(digit - UInt8(ascii: "0")))
        }
        return negative ? -seconds : seconds
    }

    /// The cookie name prefixes of RFC 6265bis §4.1.3, compared ignoring case: `__Secure-` needs `Secure`;
    /// `__Host-` needs `Secure`, no `Domain` and `Path=/`.
    static func satisfiesPrefix(of name: String, isSecure: Bool, isHostOnly: Bool, path: String) -> Bool {
        if hasPrefixIgnoringCase(name, "__secure-") { return isSecure }
        if hasPrefixIgnoringCase(name, "__host-") { return isSecure && isHostOnly && path == "/" }
        return true
    }

    private static func hasPrefixIgnoringCase(_ name: String, _ lowercasePrefix: String) -> Bool {
        let prefix = name.utf8.prefix(lowercasePrefix.utf8.count)
        return prefix.count == lowercasePrefix.utf8.count
            && CookieOrigin.asciiLowercased(prefix) == lowercasePrefix
    }

    /// Whether `byte` is a control character a cookie may not hold: `%x00-08 / %x0A-1F / %x7F` (a tab is allowed).
    static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }

    /// `bytes` without leading and trailing spaces and tabs.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return bytes[bytes.endIndex...] }
        return bytes[first...last]
    }
}
