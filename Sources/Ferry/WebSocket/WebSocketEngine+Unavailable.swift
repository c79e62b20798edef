#if !WebSocket
import Foundation

/// The engine of a build without the `WebSocket` trait: every WebSocket fails at once, with an error that names
/// the trait, unless the session's transport runs WebSockets itself (``URLSessionTransport`` on Apple platforms, with
/// `URLSessionWebSocketTask`; FerryTesting's `InMemoryTransport`).
enum WebSocketEngine {
    /// Whether this build can open a WebSocket.
    static let isAvailable = false

    /// Fails: this build has no WebSocket engine.
    /// - Throws: ``FerryError/Reason/unsupportedSetting(setting:remedy:)`` naming the `WebSocket` trait.
    static func connect(
        _ request: Request, options: WebSocketOptions, transport: any Transport, inbox: WebSocketInbox
    ) async throws(FerryError) -> WebSocketOpen {
        throw FerryError.webSocketTraitMissing(request: request)
    }
}
#endif
