/// The status code of a WebSocket close frame (RFC 6455 §7.4).
///
/// The codes Ferry sends or checks for are static members; any other code a peer sends is kept as it is.
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code's number, such as `1000`.
    public var rawValue: UInt16

    /// Creates a close code from its number.
    /// - Parameter rawValue: The number, such as `4000` for an application's own code.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 1000: the purpose of the connection was fulfilled.
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// 1001: an endpoint is going away; Ferry sends it when the task reading the messages is cancelled.
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: a protocol error.
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: a kind of data the endpoint cannot accept.
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1006: the connection ended without a close frame. Never sent; reported when a socket ends that way.
    public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    /// 1007: data inconsistent with the message's type, such as a text message that is not valid UTF-8.
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    /// 1008: a message that violates the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a message too big to process; Ferry sends it past ``WebSocketOptions/maximumMessageSize``.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1011: the server met an unexpected condition.
    public static let internalError = WebSocketCloseCode(rawValue: 1011)

    /// The number with its name when it has one: `1009 (message too big)`.
    public var description: String {
        let name: String? =
            switch rawValue {
            case 1000: "normal closure"
            case 1001: "going away"
            case 1002: "protocol error"
            case 1003: "unsupported data"
            case 1006: "abnormal closure"
            case 1007: "invalid payload"
            case 1008: "policy violation"
            case 1009: "message too big"
            case 1011: "internal error"
            default: nil
            }
        return name.map { "\(rawValue) (\($0))" } ?? "\(rawValue)"
    }
}

/// How a WebSocket ended: the close frame's code and reason.
public struct WebSocketClose: Sendable, Hashable {
    /// The close code, or `nil` when the close frame carried none.
    public var code: WebSocketCloseCode?
    /// The close reason; empty when there was none.
    public var reason: String

    /// Creates a close description.
    /// - Parameters:
    ///   - code: The close code.
    ///   - reason: The reason.
    public init(code: WebSocketCloseCode?, reason: String = "") {
        self.code = code
        self.reason = reason
    }
}
