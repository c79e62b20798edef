import Ferry

/// `ferry`'s exit codes, the ones httpie uses where httpie has one, so that scripts written for either work.
///
/// | code | meaning |
/// |---|---|
/// | 0 | the exchange completed (any status, unless `--check-status` or a download) |
/// | 1 | another failure: no connection, connection lost, a file that could not be written, … |
/// | 2 | usage (the command line is wrong), or a timeout (`--timeout`, `--max-time`) |
/// | 3, 4, 5 | with `--check-status` (always when downloading): the answer was 3xx (not followed), 4xx or 5xx |
/// | 6 | too many redirects (`--max-redirects`) |
/// | 130 | interrupted (Ctrl-C) while `ferry ws` ran; its WebSocket was closed with 1001 |
enum ExitCode: Sendable, Equatable {
    case success
    case failure
    case usage
    case network
    case timeout
    case redirection
    case clientError
    case serverError
    case tooManyRedirects
    case interrupted

    /// The process's exit status.
    var rawValue: Int32 {
        switch self {
        case .success: 0
        case .failure, .network: 1
        case .usage, .timeout: 2
        case .redirection: 3
        case .clientError: 4
        case .serverError: 5
        case .tooManyRedirects: 6
        case .interrupted: 130
        }
    }

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

    /// ``redirection``, ``clientError`` or ``serverError`` for a 3xx, 4xx or 5xx answer; `nil` for any other.
    init?(status code: Int) {
        switch code {
        case 300..<400: self = .redirection
        case 400..<500: self = .clientError
        case 500..<600: self = .serverError
        default: return nil
        }
    }
}
