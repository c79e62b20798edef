import Foundation

/// An entity tag (RFC 9110 §8.8.3): `"xyzzy"` (strong) or `W/"xyzzy"` (weak).
struct EntityTag: Sendable, Hashable {
    /// Whether the tag is weak (`W/`).
    var isWeak: Bool
    /// The opaque tag, quotes included, e.g. `"xyzzy"`.
    var opaqueTag: String

    /// Reads an `ETag` field value. Tolerant: a tag without quotes is kept as it is; a lowercase `w/` is read as
    /// weak.
    /// - Parameter value: The field value.
    init?(_ value: String) {
        let trimmed = value.trimmingOWS
        if trimmed.hasPrefix("W/") || trimmed.hasPrefix("w/") {
            isWeak = true
            opaqueTag = String(trimmed.dropFirst(2))
        } else {
            isWeak = false
            opaqueTag = trimmed
        }
        guard !opaqueTag.isEmpty else { return nil }
    }

    /// The response's `ETag`, when it has one (and only one).
    /// - Parameter headers: The response's header fields.
    init?(headers: HTTPHeaders) {
        let values = headers.values(for: "ETag")
        guard values.count == 1 else { return nil }
        self.init(values[0])
    }

    /// Strong comparison (§8.8.3.2): both strong and the same opaque tag.
    /// - Parameter other: Another tag.
    /// - Returns: Whether they match strongly.
    func matchesStrongly(_ other: EntityTag) -> Bool {
        !isWeak && !other.isWeak && opaqueTag == other.opaqueTag
    }

    /// Weak comparison (§8.8.3.2): the same opaque tag, weak or not.
    /// - Parameter other: Another tag.
    /// - Returns: Whether they match weakly.
    func matchesWeakly(_ other: EntityTag) -> Bool {
        opaqueTag == other.opaqueTag
    }
}
