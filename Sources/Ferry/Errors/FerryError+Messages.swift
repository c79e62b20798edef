import Foundation

extension FerryError: LocalizedError {
    /// One sentence that names the request and says what happened, followed by the start of the body when the
    /// response was rejected: `GET http://127.0.0.1:8080/x failed: the server answered 500 Internal Server Error.
    /// Body: {"error":"boom"}`. `localizedDescription` returns it too.
    public var errorDescription: String? { message }

    /// What happened, without the request: `The server answered 500 Internal Server Error.`
    public var failureReason: String? { MessageText.sentence(clause) }

    /// What to change, when there is something to change: `Set replacesExistingFile in DownloadOptions to replace
    /// it, or choose another destination.`; `nil` otherwise.
    public var recoverySuggestion: String? { suggestion }
}

extension FerryError {
    /// The message ``errorDescription`` and ``description`` show.
    var message: String {
        var text =
            switch reason {
            case .cancelled: subject.map { "\($0) was cancelled." } ?? "The request was cancelled."
            case .sessionShutDown: "\(subject ?? "The request") was not sent: the session was shut down."
            case .unsupportedSetting where request == nil: MessageText.sentence(clause)
            default: MessageText.sentence("\(subject ?? "The request") failed: \(clause)")
            }
        if showsBody, let body = bodyPreview { text += " Body: \(body)" }
        return text
    }

    /// The request as `GET http://host/path`, with any password in the URL replaced by `***`.
    var subject: String? {
        if let request { return "\(request.method.rawValue) \(Self.display(request.url))" }
        if let url = response?.url { return "The request to \(Self.display(url))" }
        return nil
    }

    /// What happened, as a clause that follows "failed: ".
    var clause: String {
        switch reason {
        case .invalidURL(let why): "the URL is invalid: \(MessageText.oneLine(why))"
        case .invalidRequest(let why): "the request is invalid: \(MessageText.oneLine(why))"
        case .transport(let failure): transportClause(failure)
        case .timedOut(.idle):
            if let timeout = request?.idleTimeout {
                "nothing was sent or received for \(HumanUnits.duration(timeout)) (the idle timeout)"
            } else {
                "nothing was sent or received for longer than the idle timeout"
            }
        case .timedOut(.total):
            if let timeout = request?.totalTimeout {
                "it took longer than the total timeout of \(HumanUnits.duration(timeout))"
            } else {
                "it took longer than the total timeout"
            }
        case .tooManyRedirects(let limit):
            "it was redirected more than \(limit) \(limit == 1 ? "time" : "times") (the redirect policy's limit)"
        case .unacceptableStatus(let code): "the server answered \(StatusReasonPhrase.status(code))"
        case .unacceptableContentType(let received, let acceptable): contentTypeClause(received, acceptable)
        case .validationFailed:
            "the response\(statusCode.map { " (\(StatusReasonPhrase.status($0)))" } ?? "") failed validation"
                + (underlyingError.map { ": \(Self.summary(of: $0))" } ?? "")
        case .serializationFailed: serializationClause
        case .bodyTooLarge(let limit): "the response body is larger than the limit of \(HumanUnits.bytes(limit))"
        case .decompressionLimitExceeded:
            "the response's compressed body expands beyond the transport's decompression limit"
        case .cancelled: "the request was cancelled"
        case .sessionShutDown: "the session was shut down before the request could start"
        case .destinationExists(let url): "the download destination \(url.path) already exists"
        case .fileSystemFailed(let why):
            MessageText.oneLine(why) + (systemErrorCode.map { ": \(systemErrorText($0))" } ?? "")
        case .authenticationFailed:
            "the credential could not be refreshed" + (underlyingError.map { ": \(Self.summary(of: $0))" } ?? "")
        case .interceptorFailed:
            "an interceptor failed" + (underlyingError.map { ": \(Self.summary(of: $0))" } ?? "")
        case .unsupportedSetting(let setting, _): "the transport cannot honour \(setting)"
        case .webSocketClosed(let code): webSocketClause(code)
        case .streamBufferOverflow(let limit):
            limit == .max
                ? "the stream's reader fell behind and its buffer overflowed"
                : "the stream's reader fell behind and its buffer of \(HumanUnits.bytes(limit)) filled up"
        }
    }

    /// What to change, for ``recoverySuggestion``.
    var suggestion: String? {
        switch reason {
        case .invalidURL:
            return
                "Use an absolute http or https URL, or set baseURL in Session.Configuration to resolve relative ones."
        case .invalidRequest, .validationFailed, .cancelled, .interceptorFailed:
            return nil
        case .authenticationFailed:
            return "Check the credential refresh of the AuthenticationInterceptor; its error is the underlying error."
        case .transport(let failure):
            return transportSuggestion(failure)
        case .timedOut(.idle):
            let now = request?.idleTimeout.map { " (it is \(HumanUnits.duration($0)))" } ?? ""
            return "If the server is just slow, raise idleTimeout on the request or in Session.Configuration\(now)."
        case .timedOut(.total):
            let now = request?.totalTimeout.map { " (it is \(HumanUnits.duration($0)))" } ?? ""
            return "Raise totalTimeout on the request or in Session.Configuration\(now), or set it to nil for no limit."
        case .tooManyRedirects:
            return "Check for a redirect loop, or allow more redirects with RedirectPolicy.follow(limit:)."
        case .unacceptableStatus(let code):
            return statusSuggestion(code)
        case .unacceptableContentType:
            return "Check the URL and the request's Accept header, or accept this type with validate(contentType:)."
        case .serializationFailed:
            switch detail {
            case .noBodyToDecode:
                return "Check bodyPrefix before decoding: only a response with a body can be decoded."
            case .bodyPrefixMayBeTruncated:
                return "A FerryError keeps the first \(HumanUnits.bytes(Int64(Self.bodyPrefixLimit))) of a body; "
                    + "to decode a larger error body, use unvalidated() and decode the response's body."
            default:
                return "Check that the type being decoded matches the body; bodyPrefix holds its first bytes."
            }
        case .bodyTooLarge(let limit):
            if request?.maximumBodySize == limit {
                return "Raise maximumBodySize on the request or in Session.Configuration, "
                    + "or download the body to a file with download(_:to:)."
            }
            return "Raise the limit passed to collect(upTo:), or read the body as a stream."
        case .decompressionLimitExceeded:
            return "If the server is trusted and its bodies compress that well, raise the transport's limit "
                + "(URLSessionTransport(decompressionLimit:), or the decompression in AsyncHTTPClient's configuration)."
        case .sessionShutDown:
            return "Send requests before calling shutdown(), or create a new Session."
        case .destinationExists:
            return "Set replacesExistingFile in DownloadOptions to replace it, or choose another destination."
        case .fileSystemFailed:
            switch systemErrorCode {
            case ENOSPC, EDQUOT: return "Free some disk space."
            case EACCES, EPERM, EROFS: return "Check the permissions of the file and of its directory."
            case ENOENT, ENOTDIR: return "Check that the directory exists."
            default: return nil
            }
        case .unsupportedSetting(_, let remedy):
            return remedy
        case .streamBufferOverflow:
            return "Read the stream faster, raise StreamOptions.bufferSize, "
                + "or allow more on disk with .spillToDisk(maximumBytes:)."
        case .webSocketClosed(.messageTooBig):
            return "Raise WebSocketOptions.maximumMessageSize if the server's messages are that large."
        case .webSocketClosed:
            return nil
        }
    }

    // MARK: Responses

    private func contentTypeClause(_ received: String?, _ acceptable: [String]) -> String {
        let expected: String? =
            switch acceptable.count {
            case 0: nil
            case 1: acceptable[0]
            default: "one of " + acceptable.joined(separator: ", ")
            }
        guard let received else {
            return "the response has no Content-Type" + (expected.map { " (expected \($0))" } ?? "")
        }
        guard let expected else { return "the response's Content-Type \(received) is not acceptable" }
        return "the response's Content-Type is \(received), not \(expected)"
    }

    private var serializationClause: String {
        if detail == .noBodyToDecode { return "there is no response body to decode" }
        var clause = "the response body could not be decoded"
        if let underlyingError { clause += ": \(Self.summary(of: underlyingError))" }
        if detail == .bodyPrefixMayBeTruncated {
            clause += " (only the first \(HumanUnits.bytes(Int64(Self.bodyPrefixLimit))) of the body are kept)"
        }
        return clause
    }

    private func statusSuggestion(_ code: Int) -> String? {
        switch code {
        case 401, 407:
            return "Check the credentials the request sends."
        case 403:
            return "Check that the credentials the request sends allow it."
        case 404, 410:
            return "Check the URL."
        case 408, 429, 503:
            guard let retryAfter = response?.headers["Retry-After"] else { return "Retry later." }
            if let seconds = Int(retryAfter), seconds >= 0 {
                return "Retry in \(HumanUnits.duration(.seconds(seconds))), as the server's Retry-After asks."
            }
            return "Retry after \(MessageText.oneLine(retryAfter)), as the server's Retry-After asks."
        case 300..<400:
            return "Follow redirects (see RedirectPolicy), or accept this status with validate(statusCode:)."
        case 400, 422:
            return "Check the request's parameters and body against what the server expects; its answer may say more."
        case 500..<600:
            return "The failure is on the server's side: retry later, or check the server's logs."
        default:
            return nil
        }
    }

    /// Whether the message shows the start of the body: when the response itself was rejected.
    private var showsBody: Bool {
        switch reason {
        case .unacceptableStatus, .unacceptableContentType, .validationFailed: true
        case .serializationFailed: detail != .noBodyToDecode
        default: false
        }
    }

    /// The start of the body on one line, or `nil` when there is none.
    var bodyPreview: String? {
        guard let bodyPrefix else { return nil }
        return MessageText.bodyPreview(of: bodyPrefix, isComplete: bodyIsComplete, totalLength: announcedLength)
    }

    /// Whether ``bodyPrefix`` holds the whole body: it is shorter than the limit, or as long as announced.
    var bodyIsComplete: Bool {
        guard let bodyPrefix else { return true }
        return bodyPrefix.count < Self.bodyPrefixLimit || announcedLength == Int64(bodyPrefix.count)
    }

    /// The body's length as `Content-Length` announced it, when that is the length of the body Ferry kept.
    private var announcedLength: Int64? {
        guard let response, !response.headers.contains("Content-Encoding") else { return nil }
        return response.expectedContentLength
    }
}

extension FerryError {
    /// The clause for a WebSocket closed because of what the peer sent, or used after it closed.
    fileprivate func webSocketClause(_ code: WebSocketCloseCode) -> String {
        switch code {
        case .invalidPayload:
            "the server sent a text message that is not valid UTF-8 (the WebSocket was closed with \(code))"
        case .messageTooBig: "the server sent a message larger than the limit (the WebSocket was closed with \(code))"
        case .protocolError: "the server broke the WebSocket protocol (the WebSocket was closed with \(code))"
        default: "the WebSocket is closed (\(code))"
        }
    }
}
