/// What `--print` selects: `H` request headers, `B` request body, `h` response headers, `b` response body, `m`
/// response metadata (the elapsed time).
struct PrintSelection: Equatable, Sendable {
    var requestHeaders = false
    var requestBody = false
    var responseHeaders = false
    var responseBody = false
    var metadata = false

    /// Parses the letters of `--print`.
    /// - Throws: ``UsageError`` for an empty selection or a letter other than `HBhbm`.
    init(parsing letters: String) throws(UsageError) {
        guard !letters.isEmpty else { throw UsageError("--print needs one or more of H, B, h, b, m") }
        for letter in letters {
            switch letter {
            case "H": requestHeaders = true
            case "B": requestBody = true
            case "h": responseHeaders = true
            case "b": responseBody = true
            case "m": metadata = true
            default:
                throw UsageError(
                    "--print takes H (request headers), B (request body), h (response headers), b (response body), "
                        + "m (metadata); not \"\(letter)\"")
            }
        }
    }

    init(
        requestHeaders: Bool, requestBody: Bool, responseHeaders: Bool, responseBody: Bool, metadata: Bool = false
    ) {
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.metadata = metadata
    }
}
