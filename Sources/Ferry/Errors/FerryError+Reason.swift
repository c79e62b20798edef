import Foundation

extension FerryError {
    /// Why a request failed. New cases may be added in later versions: keep a `default` branch in switches.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// The URL could not be built or is not an absolute `http`/`https` URL. The associated value says why.
        case invalidURL(String)
        /// The request is malformed (a header with CR or LF, an unencodable body, …). The associated value says why.
        case invalidRequest(String)
        /// The transfer failed below HTTP: no connection, a lost connection, a malformed response, ….
        case transport(TransportFailure)
        /// The request took longer than one of its timeouts.
        case timedOut(TimeoutKind)
        /// Following redirects exceeded the limit, which is the associated value.
        case tooManyRedirects(limit: Int)
        /// The status code failed validation.
        case unacceptableStatus(Int)
        /// The `Content-Type` failed validation; `nil` when the response had none.
        case unacceptableContentType(received: String?, acceptable: [String])
        /// A custom validator rejected the response; ``FerryError/underlyingError`` holds its error.
        case validationFailed
        /// The serializer could not produce a value; ``FerryError/underlyingError`` holds its error.
        case serializationFailed
        /// The body is larger than the limit, in bytes.
        case bodyTooLarge(limit: Int64)
        /// A compressed (`Content-Encoding`) body expands beyond the transport's decompression limit: a
        /// decompression bomb, stopped before it could fill memory. See
        /// ``URLSessionTransport/DecompressionLimit`` and, with the `AsyncHTTPClient` trait,
        /// `AsyncHTTPClientTransport.defaultConfiguration`.
        case decompressionLimitExceeded
        /// The request was cancelled.
        case cancelled
        /// The session was shut down before the request could start.
        case sessionShutDown
        /// A download's destination already exists and the options say not to replace it.
        case destinationExists(URL)
        /// Reading or writing a local file failed (a download's file, an upload's source, a stream's spill file);
        /// the associated value says which, ``FerryError/underlyingError`` holds the system's error.
        case fileSystemFailed(String)
        /// An ``AuthenticationInterceptor`` could not get a credential: its refresh failed;
        /// ``FerryError/underlyingError`` holds the refresh's error.
        case authenticationFailed
        /// A ``RequestAdapter`` or ``RequestRetrier`` threw an error that is not a ``FerryError``;
        /// ``FerryError/underlyingError`` holds it.
        case interceptorFailed
        /// A streamed response arrived faster than its consumer read it and its buffer, of the associated size in
        /// bytes, filled up (``StreamOptions/OverflowPolicy/fail``, or the spill file's limit).
        case streamBufferOverflow(limit: Int64)
        /// A transport cannot honour a setting it was given (a proxy URLSession on Linux cannot use, say): thrown
        /// when the transport is created, or by a request whose setting comes from the environment. `setting`
        /// names it; `remedy` says what to do instead.
        case unsupportedSetting(setting: String, remedy: String)
        /// A WebSocket was closed because of what the peer sent (a text message that is not UTF-8, a message
        /// larger than ``WebSocketOptions/maximumMessageSize``, a protocol error), or was used after it closed. The
        /// associated value is the close code Ferry sent, or the one that ended the socket.
        case webSocketClosed(WebSocketCloseCode)

        /// A short, human-readable form of the reason.
        public var description: String {
            switch self {
            case .invalidURL(let why): "invalid URL (\(why))"
            case .invalidRequest(let why): "invalid request (\(why))"
            case .transport(let failure): "transport failure (\(failure))"
            case .timedOut(let kind): "timed out (\(kind))"
            case .tooManyRedirects(let limit): "too many redirects (limit \(limit))"
            case .unacceptableStatus(let code): "unacceptable status code \(code)"
            case .unacceptableContentType(let received, let acceptable):
                "unacceptable content type \(received ?? "none") (acceptable: \(acceptable.joined(separator: ", ")))"
            case .validationFailed: "validation failed"
            case .serializationFailed: "serialization failed"
            case .bodyTooLarge(let limit): "body larger than \(limit) bytes"
            case .decompressionLimitExceeded: "decompression limit exceeded"
            case .cancelled: "cancelled"
            case .sessionShutDown: "session shut down"
            case .destinationExists(let url): "the destination \(url.path) already exists"
            case .fileSystemFailed(let why): "file system failure (\(why))"
            case .authenticationFailed: "authentication failed"
            case .interceptorFailed: "interceptor failed"
            case .streamBufferOverflow(let limit): "the stream consumer fell \(limit) bytes behind"
            case .unsupportedSetting(let setting, _): "unsupported setting (\(setting))"
            case .webSocketClosed(let code): "WebSocket closed (\(code))"
            }
        }
    }

    /// Which timeout ran out.
    public enum TimeoutKind: Sendable, Hashable, CustomStringConvertible {
        /// No byte moved for longer than the idle timeout.
        case idle
        /// The whole request, redirects included, took longer than the total timeout.
        case total

        /// `"idle"` or `"total"`.
        public var description: String { self == .idle ? "idle" : "total" }
    }

    /// What went wrong below HTTP.
    public enum TransportFailure: Sendable, Hashable, CustomStringConvertible {
        /// The host name could not be resolved.
        case hostNotFound
        /// The connection was refused or could not be made.
        case cannotConnect
        /// The connection was lost or reset before the response was complete.
        case connectionLost
        /// The server sent something that is not valid HTTP: garbage, bad chunking, a truncated body, a head that
        /// is too large.
        case invalidResponse
        /// TLS could not be established (certificate, handshake).
        case secureConnectionFailed
        /// There is no network.
        case notConnected
        /// The transport cannot reach this host although the URL is valid: URLSession on Linux
        /// (FoundationNetworking) refuses every IPv6 literal host, such as `http://[::1]:8080/`. The
        /// AsyncHTTPClient transport reaches them, and so does a host name that resolves to the address.
        case unsupportedHost
        /// Anything else; the underlying error says more.
        case other

        /// A short name for the failure.
        public var description: String {
            switch self {
            case .hostNotFound: "host not found"
            case .cannotConnect: "cannot connect"
            case .connectionLost: "connection lost"
            case .invalidResponse: "invalid response"
            case .secureConnectionFailed: "secure connection failed"
            case .notConnected: "not connected"
            case .unsupportedHost: "unsupported host"
            case .other: "other"
            }
        }
    }
}
