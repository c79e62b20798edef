#if AsyncHTTPClient || WebSocket
import NIOCore
import NIOPosix
import NIOSSL

extension FerryError {
    /// Maps an error of SwiftNIO's sockets, its connection attempts or its TLS, the same for a request on
    /// AsyncHTTPClient and for a WebSocket's handshake, with what the error says beyond the reason as its detail.
    /// - Returns: `nil` for an error that is not one of these.
    static func mappingNIO(_ error: any Error) -> FerryError? {
        if error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError {
            let phrase =
                (error as? NIOSSLExtraError) == .failedToValidateHostname
                ? "the server's certificate does not name this host" : tlsPhrase(String(describing: error))
            return FerryError(.transport(.secureConnectionFailed), detail: .tlsFailed(phrase), underlyingError: error)
        }
        if let error = error as? NIOConnectionError {
            // Every address failed; the first one's error says why. No address at all: the name did not resolve.
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return FerryError(.transport(.hostNotFound), detail: nil, underlyingError: error)
            }
            let detail = error.connectionErrors.lazy.compactMap { socketDetail($0.error) }.first
            return FerryError(.transport(.cannotConnect), detail: detail, underlyingError: error)
        }
        if let error = error as? IOError {
            let reason: Reason =
                switch error.errnoCode {
                case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH: .transport(.cannotConnect)
                case ECONNRESET, EPIPE: .transport(.connectionLost)
                default: .transport(.other)
                }
            return FerryError(reason, detail: Detail(errno: error.errnoCode), underlyingError: error)
        }
        if let error = error as? ChannelError {
            if case .connectTimeout = error {
                return FerryError(.transport(.cannotConnect), detail: .connectTimedOut, underlyingError: error)
            }
            let detail: Detail? = error == .eof || error == .ioOnClosedChannel ? .connectionClosed : nil
            return FerryError(.transport(.connectionLost), detail: detail, underlyingError: error)
        }
        return nil
    }

    /// What BoringSSL's error text says, in words: its reason codes are the only clue to why a handshake failed.
    private static func tlsPhrase(_ text: String) -> String {
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "the server's certificate could not be verified (not issued by a trusted root, expired, not yet "
                + "valid, or its chain incomplete)"
        }
        if text.contains("UNSUPPORTED_PROTOCOL") || text.contains("PROTOCOL_VERSION") {
            return "the server and Ferry share no TLS version (TLSPolicy.minimumVersion)"
        }
        if text.contains("CERTIFICATE_REQUIRED") || text.contains("HANDSHAKE_FAILURE") {
            return "the server refused the handshake (does it want a client certificate?)"
        }
        if text.contains("WRONG_VERSION_NUMBER") { return "the server does not speak TLS on this port" }
        return "the TLS handshake failed"
    }

    /// What a socket error of one connection attempt says.
    private static func socketDetail(_ error: any Error) -> Detail? {
        if let error = error as? IOError { return Detail(errno: error.errnoCode) }
        if let error = error as? ChannelError, case .connectTimeout = error { return .connectTimedOut }
        return nil
    }
}
#endif
