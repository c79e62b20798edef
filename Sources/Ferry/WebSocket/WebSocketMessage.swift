import Foundation

/// One whole WebSocket message: text or binary, reassembled from its fragments.
///
/// ``WebSocketTask/messages`` yields them; ``WebSocketTask/send(_:)`` sends one.
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message (opcode 1), valid UTF-8.
    case text(String)
    /// A binary message (opcode 2).
    case binary(Data)
}
