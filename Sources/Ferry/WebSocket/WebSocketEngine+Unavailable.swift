#if !WebSocket
import Foundation

/// The engine of a build without the `WebSocket` trait: every WebSocket fails at once, with an error that names
/// the trait. (On Apple platforms, `URLSessionWebSocketTask` is not mapped yet either.)
enum WebSocketEngine {
    /// Whether this build can open a WebSocket.
    static let isAvailable = false

    /// An open socket; never made in this build.
    struct Open: Sendable {
        let request: Request
        let head: HTTPResponse
        let run: Task<Void, Never>
    }

    /// A frame to send.
    enum OutgoingFrame: Sendable {
        case message(WebSocketMessage)
        case ping(Data)
    }

    /// Fails: this build has no WebSocket engine.
    /// - Throws: ``FerryError/Reason/unsupportedSetting(setting:remedy:)`` naming the `WebSocket` trait.
    static func connect(
        _ request: Request, options: WebSocketOptions, cookieJar: CookieJar?, inbox: WebSocketInbox
    ) async throws(FerryError) -> Open {
        throw FerryError.webSocketTraitMissing(request: request)
    }

    /// Fails: this build has no WebSocket engine.
    static func send(_ frame: OutgoingFrame, on open: Open) async throws(FerryError) {
        throw FerryError.webSocketTraitMissing(request: open.request)
    }
}
#endif
