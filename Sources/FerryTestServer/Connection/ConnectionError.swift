/// Why a connection stopped serving requests.
enum ConnectionError: Error, Equatable {
    /// The peer closed the connection.
    case closed
    /// The server is shutting down.
    case shuttingDown
    /// A socket call failed (typically `ECONNRESET` or `EPIPE`).
    case io(Int32)
    /// The request line and headers exceed the limit: answer 431.
    case headTooLarge
    /// The request is malformed: answer 400.
    case badRequest(String)
    /// The body exceeds the limit: answer 413.
    case bodyTooLarge
    /// The protocol version is not HTTP/1.x: answer 505.
    case unsupportedVersion
    /// A transfer coding other than chunked: answer 501.
    case unsupportedTransferCoding

    /// The status to answer with before closing, when the peer is still there to read it.
    var status: Int? {
        switch self {
        case .closed, .shuttingDown, .io: nil
        case .headTooLarge: 431
        case .badRequest: 400
        case .bodyTooLarge: 413
        case .unsupportedVersion: 505
        case .unsupportedTransferCoding: 501
        }
    }

    /// A short explanation for the error body.
    var reason: String {
        switch self {
        case .closed: "connection closed"
        case .shuttingDown: "server shutting down"
        case .io(let code): "socket error \(code)"
        case .headTooLarge: "request header fields too large"
        case .badRequest(let reason): reason
        case .bodyTooLarge: "request body too large"
        case .unsupportedVersion: "HTTP version not supported"
        case .unsupportedTransferCoding: "only chunked transfer coding is supported"
        }
    }
}
