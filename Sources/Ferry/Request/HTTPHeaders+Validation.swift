extension HTTPHeaders {
    /// Checks that every name is an RFC 9110 token and no value holds CR, LF or NUL, which would let a value
    /// inject further header lines.
    /// - Throws: ``FerryError`` with reason ``FerryError/Reason/invalidRequest(_:)`` naming the field.
    func validate() throws(FerryError) {
        for field in self {
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(\.isHTTPTokenByte) else {
                throw FerryError(.invalidRequest("header name \"\(field.name)\" is not a valid token"))
            }
            if field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
                throw FerryError(.invalidRequest("header \"\(field.name)\" contains CR, LF or NUL"))
            }
        }
    }
}

extension UInt8 {
    /// Whether this byte is a `tchar` of RFC 9110.
    var isHTTPTokenByte: Bool {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(self)
        }
    }
}
