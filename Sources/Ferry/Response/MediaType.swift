/// A parsed media type such as `text/html; charset=ISO-8859-1`.
struct MediaType: Hashable, Sendable {
    /// `type/subtype`, lowercased.
    var essence: String
    /// Parameters with lowercased names; values unquoted.
    var parameters: [String: String]

    init(parsing text: String) {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        essence = (parts.first.map(String.init) ?? "").trimmed.lowercased()
        var parameters: [String: String] = [:]
        for part in parts.dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { continue }
            let name = String(part[..<equals]).trimmed.lowercased()
            var value = String(part[part.index(after: equals)...]).trimmed
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            parameters[name] = value
        }
        self.parameters = parameters
    }

    var type: Substring { essence.split(separator: "/", maxSplits: 1).first ?? "" }
    var subtype: Substring { essence.split(separator: "/", maxSplits: 1).dropFirst().first ?? "" }

    /// Whether this type, used as a pattern with `*` wildcards, matches `other`.
    func matches(_ other: MediaType) -> Bool {
        if essence == "*/*" || essence == "*" { return true }
        guard type == other.type else { return false }
        return subtype == "*" || subtype == other.subtype
    }
}

extension String {
    var trimmed: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
