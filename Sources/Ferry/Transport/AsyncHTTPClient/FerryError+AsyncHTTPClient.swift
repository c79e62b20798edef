#if AsyncHTTPClient
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix

extension FerryError {
    /// Maps an error of AsyncHTTPClient or SwiftNIO (or anything else the engine threw) to a `FerryError`.
    static func mappingAsyncHTTPClient(_ error: any Error) -> FerryError {
        if let error = error as? FerryError { return error }
        if error is CancellationError { return FerryError(.cancelled) }
        if let error = error as? HTTPClientError {
            let reason: Reason =
                switch error {
                case .cancelled: .cancelled
                case .invalidURL, .emptyHost, .emptyScheme: .invalidURL("rejected by the transport")
                case .connectTimeout: .transport(.cannotConnect)
                case .readTimeout, .writeTimeout: .timedOut(.idle)
                case .remoteConnectionClosed, .bodyLengthMismatch: .transport(.connectionLost)
                case .alreadyShutdown: .sessionShutDown
                default: .transport(.invalidResponse)
                }
            return FerryError(reason, underlyingError: error)
        }
        if error is HTTPParserError || error is NIOHTTPDecompression.DecompressionError {
            return FerryError(.transport(.invalidResponse), underlyingError: error)
        }
        if error is NIOConnectionError {
            return FerryError(.transport(.cannotConnect), underlyingError: error)
        }
        if let error = error as? IOError {
            let reason: Reason =
                switch error.errnoCode {
                case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH: .transport(.cannotConnect)
                case ECONNRESET, EPIPE: .transport(.connectionLost)
                default: .transport(.other)
                }
            return FerryError(reason, underlyingError: error)
        }
        if error is ChannelError {
            return FerryError(.transport(.connectionLost), underlyingError: error)
        }
        return FerryError(.transport(.other), underlyingError: error)
    }
}
#endif
