extension HTTPResponse {
    /// What a response's `Content-Length` fields declare.
    enum ContentLengthDeclaration: Hashable {
        /// No `Content-Length` field.
        case absent
        /// One length (possibly repeated, identically).
        case length(Int64)
        /// A value that is not a length, or lengths that disagree.
        case invalid
    }

    /// The `Content-Length` fields read as one declaration. Repeated fields arrive joined with `", "` (and
    /// FoundationNetworking joins them itself), so the value is a comma-separated list whose elements must all be
    /// the same length (RFC 9110 §8.6).
    var contentLengthDeclaration: ContentLengthDeclaration {
        // Read from the ASCII bytes, spaces and tabs around each element allowed: no String copy, and no Foundation
        // trim (which goes through NSString on Linux), on every response.
        guard let value = headers["Content-Length"] else { return .absent }
        var declared: Int64?
        var element: Int64?
        var trailingSpace = false
        for byte in value.utf8 {
            switch byte {
            case 0x20, 0x09:
                if element != nil { trailingSpace = true }
            case 0x30...0x39 where !trailingSpace:
                let (times10, overflow1) = (element ?? 0).multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - 0x30))
                if overflow1 || overflow2 { return .invalid }
                element = sum
            case 0x2C:
                guard let length = element, declared == nil || declared == length else { return .invalid }
                declared = length
                element = nil
                trailingSpace = false
            default:
                return .invalid
            }
        }
        guard let length = element, declared == nil || declared == length else { return .invalid }
        return .length(length)
    }
}
