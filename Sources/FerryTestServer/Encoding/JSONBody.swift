import Foundation

/// Serialises the built-in routes' JSON documents: sorted keys, unescaped slashes.
enum JSONBody {
    /// Encodes a JSON-compatible value (`[String: Any]`, `[Any]`, `String`, numbers, `Bool`, `NSNull`).
    /// - Parameter object: the value.
    /// - Returns: the UTF-8 JSON text; `{}` if the value is not JSON-compatible.
    static func encode(_ object: Any) -> Data {
        guard JSONSerialization.isValidJSONObject(object) || !(object is [Any] || object is [String: Any]) else {
            return Data("{}".utf8)
        }
        let data = try? JSONSerialization.data(
            withJSONObject: object,
            options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]
        )
        return data ?? Data("{}".utf8)
    }

    /// Parses a body as JSON, or returns `nil`.
    static func decode(_ data: Data) -> Any? {
        try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }
}
