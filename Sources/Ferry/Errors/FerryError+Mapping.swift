import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FerryError {
    /// Maps any error a transport or the pipeline threw to a `FerryError`.
    /// - Parameters:
    ///   - error: The error.
    ///   - cancelled: Whether the Swift task running the request was cancelled; then anything but a timeout
    ///     counts as cancellation.
    static func mapping(_ error: any Error, cancelled: Bool = false) -> FerryError {
        if let error = error as? FerryError {
            // A cancellation stays itself: wrapping it in another would only repeat it.
            if cancelled, !error.isTimeout, !error.isCancellation {
                return FerryError(.cancelled, underlyingError: error)
            }
            return error
        }
        if error is CancellationError { return FerryError(.cancelled) }
        if let error = error as? URLError {
            // libcurl reports TLS failures as URLError(-1) with its own message text.
            if error.code == .unknown, "\(error)".localizedCaseInsensitiveContains("SSL") {
                return FerryError(.transport(.secureConnectionFailed), underlyingError: error)
            }
            // libcurl reports a reply that is not HTTP ("Received HTTP/0.9 when not allowed") as an unsupported
            // URL; Ferry has already checked the URL, so this is the server's fault.
            if error.code == .unsupportedURL, "\(error)".contains("HTTP/0.9") {
                return FerryError(
                    .transport(.invalidResponse), detail: .malformedResponse("it is not an HTTP/1.x response"),
                    underlyingError: error)
            }
            // libcurl's "Empty reply from server": the server closed the connection without a byte of answer, which is
            // what a kept-alive connection it had just closed looks like. AsyncHTTPClient reports it as a lost
            // connection; so does Ferry, on every transport.
            if error.code == .badServerResponse, "\(error)".contains("Empty reply from server") {
                return FerryError(.transport(.connectionLost), detail: .connectionClosed, underlyingError: error)
            }
            // libcurl's "transfer closed with 500 bytes remaining to read" (or "with outstanding read data
            // remaining", chunked): the connection ended before the body did. AsyncHTTPClient reports a lost
            // connection; so does Ferry, on every transport.
            if error.code == .unknown, "\(error)".contains("transfer closed with") {
                return FerryError(.transport(.connectionLost), detail: .connectionClosed, underlyingError: error)
            }
            return FerryError(Reason(error.code), detail: Detail(error), underlyingError: error)
        }
        if cancelled { return FerryError(.cancelled, underlyingError: error) }
        return FerryError(.transport(.other), underlyingError: error)
    }
}

extension FerryError.Reason {
    /// The reason for a `URLError` code.
    init(_ code: URLError.Code) {
        switch code {
        case .cancelled, .userCancelledAuthentication:
            self = .cancelled
        case .timedOut:
            self = .timedOut(.idle)
        case .httpTooManyRedirects:
            self = .tooManyRedirects(limit: 20)
        case .badURL, .unsupportedURL:
            self = .invalidURL("rejected by the transport")
        case .cannotFindHost, .dnsLookupFailed:
            self = .transport(.hostNotFound)
        case .cannotConnectToHost:
            self = .transport(.cannotConnect)
        case .networkConnectionLost:
            self = .transport(.connectionLost)
        case .notConnectedToInternet, .internationalRoamingOff, .dataNotAllowed, .callIsActive:
            self = .transport(.notConnected)
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData,
            .zeroByteResource, .unknown, .dataLengthExceedsMaximum:
            self = .transport(.invalidResponse)
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired:
            self = .transport(.secureConnectionFailed)
        default:
            self = .transport(.other)
        }
    }
}

extension FerryError.Detail {
    /// What a `URLError` says beyond its code, when it says it: the POSIX error of the socket (Apple platforms
    /// give it as `_kCFStreamErrorCodeKey`), or libcurl's message on Linux ("Connection refused").
    init?(_ error: URLError) {
        let info = error.userInfo
        if info["_kCFStreamErrorDomainKey"] as? Int == 1, let code = info["_kCFStreamErrorCodeKey"] as? Int,
            let number = Int32(exactly: code), number > 0
        {
            self.init(errno: number)
            return
        }
        if error.code == .cannotDecodeContentData || error.code == .cannotDecodeRawData {
            self = .malformedResponse("its compressed body could not be decoded")
            return
        }
        let text = (info[NSLocalizedDescriptionKey] as? String ?? "").lowercased()
        if text.contains("connection refused") {
            self = .connectionRefused
        } else if text.contains("connection reset") {
            self = .connectionReset
        } else if text.contains("no route to host") {
            self = .hostUnreachable
        } else if text.contains("network is unreachable") {
            self = .networkUnreachable
        } else {
            return nil
        }
    }
}
