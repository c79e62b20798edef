import Foundation

extension HTTPHeaders {
    /// The elements of a list-based field (RFC 9110 §5.6.1) across every line named `name`, in order: each split at
    /// its commas, trimmed of spaces and tabs, empty elements dropped. For fields whose elements hold no quoted
    /// commas (`Vary`, `Connection`, `Age`); `Cache-Control` has its own parser.
    /// - Parameter name: The field name, compared case-insensitively.
    /// - Returns: The elements; empty when there is none.
    func listElements(for name: String) -> [String] {
        values(for: name).flatMap { $0.split(separator: ",") }.compactMap {
            let element = $0.trimmingCharacters(in: .whitespaces)
            return element.isEmpty ? nil : element
        }
    }
}
