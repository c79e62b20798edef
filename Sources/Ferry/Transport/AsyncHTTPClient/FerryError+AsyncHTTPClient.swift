#if AsyncHTTPClient
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

extension FerryError {
    /// Maps an error of AsyncHTTPClient or SwiftNIO (or anything else the engine threw) to a `FerryError`, with
    /// what the error says beyond the reason (a refused connection, a reset, a malformed chunk) as its detail. The
    /// errors of SwiftNIO's sockets and TLS are mapped as for a WebSocket (``mappingNIO(_:)``).
    static func mappingAsyncHTTPClient(_ error: any Error) -> FerryError {
        if let error = error as? FerryError { return error }
        if error is CancellationError { return FerryError(.cancelled) }
        if let error = error as? HTTPClientError {
            let (reason, detail): (Reason, Detail?) =
                switch error {
                case .cancelled: (.cancelled, nil)
                case .invalidURL, .emptyHost, .emptyScheme: (.invalidURL("rejected by the transport"), nil)
                case .connectTimeout: (.transport(.cannotConnect), .connectTimedOut)
                // A request waits for a connection from the engine's pool no longer than the connect timeout, and a
                // TLS handshake is part of connecting: no connection in time, not a malformed response.
                case .getConnectionFromPoolTimeout, .tlsHandshakeTimeout: (.transport(.cannotConnect), .connectTimedOut)
                case .readTimeout, .writeTimeout: (.timedOut(.idle), nil)
                case .remoteConnectionClosed: (.transport(.connectionLost), .connectionClosed)
                case .bodyLengthMismatch: (.transport(.connectionLost), .bodyShorterThanAnnounced)
                case .alreadyShutdown: (.sessionShutDown, nil)
                case .proxyAuthenticationRequired:
                    (
                        .transport(.cannotConnect),
                        .proxyFailed("the proxy refused the credentials (407 Proxy Authentication Required)")
                    )
                case .invalidProxyResponse:
                    (.transport(.cannotConnect), .proxyFailed(FerryError.proxyRefusedTunnel))
                case .httpProxyHandshakeTimeout, .socksHandshakeTimeout:
                    (.transport(.cannotConnect), .proxyFailed("the proxy did not answer in time"))
                default: (.transport(.invalidResponse), nil)
                }
            return FerryError(reason, detail: detail, underlyingError: error)
        }
        if let error = error as? HTTPParserError {
            // The connection closed in the middle of a response: a body shorter than its Content-Length, a chunked
            // body without its last chunk. Lost, as libcurl's "transfer closed with … remaining" is on URLSession,
            // and so retryable for an idempotent request.
            if error == .invalidEOFState {
                return FerryError(.transport(.connectionLost), detail: .connectionClosed, underlyingError: error)
            }
            return FerryError(
                .transport(.invalidResponse), detail: Self.parserDetail(error), underlyingError: error)
        }
        if let error = error as? NIOHTTPDecompression.DecompressionError {
            if error == .limit { return FerryError(.decompressionLimitExceeded, underlyingError: error) }
            return FerryError(
                .transport(.invalidResponse), detail: .malformedResponse("its compressed body could not be decoded"),
                underlyingError: error)
        }
        if let mapped = mappingNIO(error) { return mapped }
        return FerryError(.transport(.other), underlyingError: error)
    }

    /// What is wrong with a response NIO's parser rejected, as a phrase.
    private static func parserDetail(_ error: HTTPParserError) -> Detail? {
        switch error {
        case .headerOverflow: .malformedResponse("its head is too large")
        case .invalidChunkSize: .malformedResponse("a chunk size is malformed")
        case .invalidContentLength, .unexpectedContentLength: .malformedResponse("its Content-Length is invalid")
        case .invalidStatus: .malformedResponse("its status line is malformed")
        case .invalidVersion: .malformedResponse("its HTTP version is malformed")
        case .invalidHeaderToken, .invalidCharactersUsed, .lfExpected, .invalidConstant:
            .malformedResponse("it contains malformed bytes")
        case .closedConnection: .malformedResponse("it ended early")
        default: nil
        }
    }
}
#endif
