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
            if cancelled, !error.isTimeout { return FerryError(.cancelled, underlyingError: error) }
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
                return FerryError(.transport(.invalidResponse), underlyingError: error)
            }
            return FerryError(Reason(error.code), underlyingError: error)
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
