extension Cookie {
    /// A cookie's `SameSite` attribute (RFC 6265bis §4.1.2.7), kept as the server set it.
    public enum SameSite: String, Sendable, Hashable, CaseIterable {
        /// `SameSite=Strict`.
        case strict = "Strict"
        /// `SameSite=Lax`.
        case lax = "Lax"
        /// `SameSite=None`.
        case none = "None"

        /// The value named by `text`, compared ignoring case; `nil` for any other text.
        init?(attributeValue text: String) {
            guard let match = Self.allCases.first(where: { $0.rawValue.equalsIgnoringASCIICase(text) }) else {
                return nil
            }
            self = match
        }
    }
}
