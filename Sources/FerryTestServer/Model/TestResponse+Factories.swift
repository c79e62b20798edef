import Foundation

extension TestResponse {
    /// A JSON response from JSON text.
    /// - Parameters:
    ///   - json: the JSON text, sent as is (it is not validated, so it can be deliberately broken).
    ///   - status: the status code.
    /// - Returns: the response, with `Content-Type: application/json`.
    public static func json(_ json: String, status: Int = 200) -> TestResponse {
        TestResponse(status: status, headers: [("Content-Type", "application/json")], body: .text(json))
    }

    /// A JSON response from an `Encodable` value.
    /// - Parameters:
    ///   - value: the value to encode.
    ///   - status: the status code.
    ///   - encoder: the encoder; `nil` uses one with sorted keys, so that bodies are deterministic.
    /// - Returns: the response, with `Content-Type: application/json`; a 500 naming the error if encoding fails.
    public static func json<Value: Encodable>(
        _ value: Value,
        status: Int = 200,
        encoder: JSONEncoder? = nil
    ) -> TestResponse {
        let encoder =
            encoder
            ?? {
                let sorted = JSONEncoder()
                sorted.outputFormatting = [.sortedKeys]
                return sorted
            }()
        do {
            let data = try encoder.encode(value)
            return TestResponse(status: status, headers: [("Content-Type", "application/json")], body: .data(data))
        } catch {
            return .text("could not encode JSON: \(error)", status: 500)
        }
    }

    /// A plain-text response in UTF-8.
    /// - Parameters:
    ///   - text: the text.
    ///   - status: the status code.
    /// - Returns: the response, with `Content-Type: text/plain; charset=utf-8`.
    public static func text(_ text: String, status: Int = 200) -> TestResponse {
        TestResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: .text(text))
    }

    /// A response with a status and no body.
    /// - Parameter status: the status code.
    /// - Returns: the response.
    public static func status(_ status: Int) -> TestResponse {
        TestResponse(status: status)
    }

    /// A redirect.
    /// - Parameters:
    ///   - location: the `Location` value, relative or absolute; `nil` leaves the field out.
    ///   - status: the status code, 302 by default.
    /// - Returns: the response.
    public static func redirect(to location: String?, status: Int = 302) -> TestResponse {
        TestResponse(status: status, headers: location.map { [("Location", $0)] } ?? [])
    }

    /// A JSON response from a JSON-compatible Foundation object (dictionary, array, string, number, `NSNull`).
    static func jsonObject(_ object: Any, status: Int = 200) -> TestResponse {
        TestResponse(
            status: status, headers: [("Content-Type", "application/json")], body: .data(JSONBody.encode(object)))
    }
}
