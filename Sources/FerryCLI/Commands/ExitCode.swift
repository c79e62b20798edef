import Ferry

/// `ferry`'s exit codes, one per kind of outcome so that scripts can tell them apart.
///
/// | code | meaning |
/// |---|---|
/// | 0 | the exchange completed (any status, unless `--check-status` or `-o`) |
/// | 1 | another failure: a local file could not be written, the body was too large, … |
/// | 2 | usage: the command line is wrong (unknown option, bad item, bad URL, unreadable file) |
/// | 3 | network: no connection, connection lost or refused, invalid response, TLS failure |
/// | 4 | timeout: `--timeout` (idle) or `--max-time` (total) ran out |
/// | 5 | too many redirects (`--max-redirects`) |
/// | 13, 14, 15 | with `--check-status` (always with `-o`): the answer was 3xx, 4xx or 5xx |
enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 2
    case network = 3
    case timeout = 4
    case tooManyRedirects = 5
    case redirection = 13
    case clientError = 14
    case serverError = 15

    /// The status for an error Ferry threw.
    init(_ error: FerryError) {
        switch error.reason {
        case .invalidURL, .invalidRequest: self = .usage
        case .transport: self = .network
        case .timedOut: self = .timeout
        case .tooManyRedirects: self = .tooManyRedirects
        case .unacceptableStatus(let code): self = ExitCode(status: code) ?? .failure
        default: self = .failure
        }
    }

    /// 13, 14 or 15 for a 3xx, 4xx or 5xx answer; `nil` for any other.
    init?(status code: Int) {
        switch code {
        case 300..<400: self = .redirection
        case 400..<500: self = .clientError
        case 500..<600: self = .serverError
        default: return nil
        }
    }
}
