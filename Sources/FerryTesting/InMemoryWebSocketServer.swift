import Ferry
import Foundation

/// A WebSocket endpoint in memory, for ``InMemoryTransport``: a script plays the server, and what the client sent is
/// recorded.
///
/// ```swift
/// let echo = InMemoryWebSocketServer { connection in
///     while let message = await connection.receive() {
///         try await connection.send(message)
///     }
/// }
/// let session = Session(transport: InMemoryTransport(routes: [.webSocket("/chat", echo)]))
/// let socket = session.webSocket("ws://chat.test/chat")
/// ```
///
/// Each upgrade the endpoint accepts runs the script once, with a ``Connection`` for that socket. The socket behaves
/// as a real one does for the code under test: ``Connection/send(_:)`` returns only once the client has read the
/// message, so a slow reader slows the script (the script is never more than the one message it is sending ahead of
/// the reader); a message larger than the client's ``/Ferry/WebSocketOptions/maximumMessageSize`` closes the socket
/// with 1009; the client answers the server's close frame (1000, or 1002 for a code that may not be sent), and the
/// server answers the client's close with the same code and reason. When the script returns, the server closes the
/// socket with 1000 (after the client has read every message sent before); when it throws, the connection is dropped
/// and the client sees a lost connection.
public final class InMemoryWebSocketServer: Sendable {
    /// Plays the server on one connection.
    public typealias Script = @Sendable (Connection) async throws -> Void

    /// The subprotocol the `101` response names, if any.
    public let subprotocol: String?
    /// More headers for the `101` response.
    public let headers: HTTPHeaders
    private let script: Script
    private let state = Locked(State())

    /// Creates an endpoint.
    /// - Parameters:
    ///   - subprotocol: The subprotocol the `101` response names (`Sec-WebSocket-Protocol`), whatever the client
    ///     offered: one it did not offer fails the handshake, as with a real server.
    ///   - headers: More headers for the `101` response (a `Set-Cookie`, for instance).
    ///   - script: Plays the server on each connection.
    public init(subprotocol: String? = nil, headers: HTTPHeaders = [:], _ script: @escaping Script) {
        self.subprotocol = subprotocol
        self.headers = headers
        self.script = script
    }

    /// How many upgrades the endpoint accepted.
    public var connectionCount: Int { state.withLock { $0.nextID } }

    /// Every message the client sent, in order, on every connection.
    public var receivedMessages: [WebSocketMessage] { state.withLock { $0.messages } }

    /// The payload of every ping the client sent; each is answered with a pong at once, as a live server does.
    public var receivedPings: [Data] { state.withLock { $0.pings } }

    /// Every close frame the client sent, in order: its own close (``/Ferry/WebSocketTask/close(code:reason:)``,
    /// 1001 when its task was cancelled or let go, 1009 for a message too big) or its answer to the server's.
    public var clientCloses: [WebSocketClose] { state.withLock { $0.closes } }

    /// Waits until the client has sent at least `count` close frames.
    /// - Parameter count: How many.
    /// - Returns: Every close frame the client sent (``clientCloses``).
    public func clientCloses(count: Int) async -> [WebSocketClose] {
        await withCheckedContinuation { continuation in
            mutate { state in
                guard state.closes.count < count else {
                    let closes = state.closes
                    return [{ continuation.resume(returning: closes) }]
                }
                state.closeWaiters.append((count, continuation))
                return []
            }
        }
    }

    /// Waits until the script waits in ``Connection/send(_:)`` or ``Connection/close(code:reason:)`` for the
    /// client to read, on any connection, or until a connection has ended.
    ///
    /// Makes back-pressure observable without sleeping: once this returns, the script has not got past the frame it
    /// is sending, and stays there until the client reads.
    public func waitUntilSending() async {
        await withCheckedContinuation { continuation in
            mutate { state in
                guard !state.isSendingOrEnded else { return [{ continuation.resume() }] }
                state.sendingWaiters.append(continuation)
                return []
            }
        }
    }

    /// Thrown by ``Connection/send(_:)`` when the socket has closed or the connection ended.
    public struct ConnectionClosed: Error, Sendable, CustomStringConvertible {
        /// What the script tried to send, and why it could not.
        public var description: String { "InMemoryWebSocketServer: the WebSocket is closed" }
    }

    /// The server's side of one WebSocket.
    public final class Connection: Sendable {
        /// The upgrade request, as the client sent it.
        public let request: Request
        private let server: InMemoryWebSocketServer
        private let id: Int

        init(server: InMemoryWebSocketServer, id: Int, request: Request) {
            self.server = server
            self.id = id
            self.request = request
        }

        /// Sends a message and waits until the client has read it (its ``/Ferry/WebSocketTask/messages`` iterator
        /// asked for it).
        /// - Parameter message: A text or binary message.
        /// - Throws: ``ConnectionClosed`` when the socket closed (or the connection ended) before the client read it.
        public func send(_ message: WebSocketMessage) async throws {
            guard await server.serverSends(id, .message(message)) else { throw ConnectionClosed() }
        }

        /// The client's next message, in the order sent; `nil` once the client has closed the socket (every message
        /// it sent before is returned first) or the connection ended.
        /// - Returns: The message, or `nil`.
        public func receive() async -> WebSocketMessage? {
            await server.serverReceives(id)
        }

        /// Closes the socket: sends a close frame and waits until the client has read it (and answered it), or the
        /// socket has ended. Later sends throw ``ConnectionClosed``.
        /// - Parameters:
        ///   - code: The close code; 1000 (normal closure) by default.
        ///   - reason: The reason.
        public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
            _ = await server.serverSends(id, .close(WebSocketClose(code: code, reason: reason)))
        }

        /// The close frame the client sent on this connection (its own close or its answer to the server's); `nil`
        /// while it has sent none.
        public var clientClose: WebSocketClose? { server.state.withLock { $0.wires[id]?.clientClose } }
    }

    // MARK: Accepting an upgrade

    /// Accepts an upgrade: the `101` head, the script started, and the client's side of the socket running.
    func accept(_ request: Request, options: WebSocketOptions, inbox: WebSocketInbox) -> WebSocketOpen {
        var fields = headers
        fields.update(name: "Upgrade", value: "websocket")
        fields.update(name: "Connection", value: "Upgrade")
        if let subprotocol { fields.update(name: "Sec-WebSocket-Protocol", value: subprotocol) }
        let head = HTTPResponse(
            statusCode: 101, headers: fields, url: WebSocketHandshake.webSocketURL(request.url), httpVersion: "HTTP/1.1"
        )
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.wires[id] = Wire()
            return id
        }
        let connection = Connection(server: self, id: id, request: request)
        let script = Task {
            do {
                try await self.script(connection)
                await connection.close()
            } catch {
                self.end(id, .dropped)
            }
        }
        let run = Task {
            await self.runClient(id, request: request, head: head, options: options, inbox: inbox)
            script.cancel()
        }
        return WebSocketOpen(
            request: request, head: head,
            send: { frame throws(FerryError) in
                guard self.clientSends(id, frame) else {
                    throw FerryError(.webSocketClosed(.abnormalClosure), request: request, response: head)
                }
                // The server answers a ping at once, as a live one does.
                if case .ping(let payload) = frame { inbox.pongArrived(payload: payload.prefix(125)) }
            }, run: run)
    }

    /// The client's side of a socket, as Ferry's engine runs it: the consumer takes a message from the server only
    /// when it wants one; a requested close is sent to the server; the inbox learns how the socket ended.
    private func runClient(
        _ id: Int, request: Request, head: HTTPResponse, options: WebSocketOptions, inbox: WebSocketInbox
    ) async {
        var outcome: Result<WebSocketMessage?, FerryError> = .success(nil)
        var closeFrame: WebSocketClose?
        await withTaskGroup(of: WebSocketClose?.self) { group in
            group.addTask {
                guard let close = await inbox.closerWaits() else { return nil }
                let frame = WebSocketClose(code: close.code, reason: close.reason)
                self.clientCloses(id, frame)
                // The server answers with the same code and reason.
                return frame
            }
            inbox.attach(
                WebSocketReader { [self] in
                    switch await clientTakes(id) {
                    case .frame(.message(let message)):
                        guard message.byteCount <= options.maximumMessageSize else {
                            clientCloses(id, WebSocketClose(code: .messageTooBig))
                            throw ReadingEnded(
                                outcome: .failure(
                                    FerryError(.webSocketClosed(.messageTooBig), request: request, response: head)),
                                closeFrame: WebSocketClose(code: .messageTooBig))
                        }
                        return message
                    case .frame(.close(let close)):
                        let answer: WebSocketCloseCode =
                            close.code.map(Self.maySend) == false ? .protocolError : .normalClosure
                        clientCloses(id, WebSocketClose(code: answer))
                        throw ReadingEnded(outcome: nil, closeFrame: close)
                    case .ended(.clientClosed):
                        return nil
                    case .ended(.dropped):
                        let lost = FerryError(.transport(.connectionLost), request: request, response: head)
                        throw ReadingEnded(outcome: .failure(lost), closeFrame: nil)
                    }
                })
            if let ended = await inbox.readingEnds() as? ReadingEnded {
                if let ending = ended.outcome { outcome = ending }
                closeFrame = ended.closeFrame
            }
            inbox.readerStopped()
            for await sent in group where closeFrame == nil {
                closeFrame = sent
            }
        }
        self.end(id, .dropped)
        inbox.finish(outcome, closeFrame: closeFrame)
    }

    /// How the client's reading ended, when the server's side ended it: what the consumer gets, and the close frame.
    private struct ReadingEnded: Error {
        var outcome: Result<WebSocketMessage?, FerryError>?
        var closeFrame: WebSocketClose?
    }

    /// Whether a peer may send `code` in a close frame (RFC 6455 §7.4).
    private static func maySend(_ code: WebSocketCloseCode) -> Bool {
        switch code.rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    // MARK: The wire between the two sides

    /// A frame from the server.
    private enum ServerFrame: Sendable {
        case message(WebSocketMessage)
        case close(WebSocketClose)
    }

    /// How a socket ended.
    private enum Ending: Sendable {
        /// The client sent a close frame.
        case clientClosed
        /// The connection went without one.
        case dropped
    }

    /// What the client's reader takes: a frame, or the end.
    private enum Take: Sendable {
        case frame(ServerFrame)
        case ended(Ending)
    }

    /// One socket: the frames the script is sending (each sender waits until the client takes its frame) and the
    /// messages the client sent that the script has not received.
    private struct Wire {
        var sending: [(frame: ServerFrame, sender: CheckedContinuation<Bool, Never>)] = []
        var reader: CheckedContinuation<Take, Never>?
        var incoming: [WebSocketMessage] = []
        var receiver: CheckedContinuation<WebSocketMessage?, Never>?
        var serverClosed = false
        var clientClose: WebSocketClose?
        var ending: Ending?
    }

    private typealias Resumption = @Sendable () -> Void

    private struct State {
        var nextID = 0
        var wires: [Int: Wire] = [:]
        var messages: [WebSocketMessage] = []
        var pings: [Data] = []
        var closes: [WebSocketClose] = []
        var endedConnections = 0
        var closeWaiters: [(count: Int, continuation: CheckedContinuation<[WebSocketClose], Never>)] = []
        var sendingWaiters: [CheckedContinuation<Void, Never>] = []

        var isSendingOrEnded: Bool {
            endedConnections > 0 || wires.values.contains { !$0.sending.isEmpty }
        }

        /// Releases ``InMemoryWebSocketServer/waitUntilSending()`` when its condition holds.
        mutating func releaseSendingWaiters() -> [Resumption] {
            guard isSendingOrEnded else { return [] }
            defer { sendingWaiters = [] }
            return sendingWaiters.map { waiter in { waiter.resume() } }
        }
    }

    /// Changes the state under the lock, then resumes what the change released.
    private func mutate(_ body: (inout State) -> [Resumption]) {
        let resumptions = state.withLock { body(&$0) }
        for resume in resumptions { resume() }
    }

    /// The script sends a frame; `true` once the client took it, `false` when the socket ended first.
    private func serverSends(_ id: Int, _ frame: ServerFrame) async -> Bool {
        await withCheckedContinuation { continuation in
            mutate { state in
                guard var wire = state.wires[id], wire.ending == nil, !wire.serverClosed else {
                    return [{ continuation.resume(returning: false) }]
                }
                if case .close = frame { wire.serverClosed = true }
                if let reader = wire.reader {
                    wire.reader = nil
                    state.wires[id] = wire
                    return [{ reader.resume(returning: .frame(frame)) }, { continuation.resume(returning: true) }]
                }
                wire.sending.append((frame, continuation))
                state.wires[id] = wire
                return state.releaseSendingWaiters()
            }
        }
    }

    /// The script waits for the client's next message.
    private func serverReceives(_ id: Int) async -> WebSocketMessage? {
        await withCheckedContinuation { continuation in
            mutate { state in
                guard var wire = state.wires[id] else { return [{ continuation.resume(returning: nil) }] }
                if !wire.incoming.isEmpty {
                    let message = wire.incoming.removeFirst()
                    state.wires[id] = wire
                    return [{ continuation.resume(returning: message) }]
                }
                if wire.ending != nil || wire.clientClose != nil { return [{ continuation.resume(returning: nil) }] }
                precondition(wire.receiver == nil, "InMemoryWebSocketServer: receive() from one task at a time")
                wire.receiver = continuation
                state.wires[id] = wire
                return []
            }
        }
    }

    /// The client's reader takes the next frame the script sends.
    private func clientTakes(_ id: Int) async -> Take {
        await withCheckedContinuation { continuation in
            mutate { state in
                guard var wire = state.wires[id] else { return [{ continuation.resume(returning: .ended(.dropped)) }] }
                if !wire.sending.isEmpty {
                    let (frame, sender) = wire.sending.removeFirst()
                    state.wires[id] = wire
                    return [{ continuation.resume(returning: .frame(frame)) }, { sender.resume(returning: true) }]
                }
                if let ending = wire.ending { return [{ continuation.resume(returning: .ended(ending)) }] }
                wire.reader = continuation
                state.wires[id] = wire
                return []
            }
        }
    }

    /// The client sends a message or a ping; `false` when the connection has ended.
    private func clientSends(_ id: Int, _ frame: WebSocketOutgoingFrame) -> Bool {
        var sent = false
        mutate { state in
            guard var wire = state.wires[id], wire.ending == nil else { return [] }
            sent = true
            switch frame {
            case .ping(let payload):
                state.pings.append(Data(payload.prefix(125)))
                return []
            case .message(let message):
                state.messages.append(message)
                if let receiver = wire.receiver {
                    wire.receiver = nil
                    state.wires[id] = wire
                    return [{ receiver.resume(returning: message) }]
                }
                wire.incoming.append(message)
                state.wires[id] = wire
                return []
            }
        }
        return sent
    }

    /// The client sends a close frame: recorded, and the socket ends (the server's answer is implied).
    private func clientCloses(_ id: Int, _ close: WebSocketClose) {
        mutate { state in
            guard var wire = state.wires[id], wire.ending == nil else { return [] }
            wire.clientClose = close
            state.wires[id] = wire
            state.closes.append(close)
            let closes = state.closes
            var resumptions: [Resumption] = []
            state.closeWaiters.removeAll { waiter in
                guard closes.count >= waiter.count else { return false }
                resumptions.append { waiter.continuation.resume(returning: closes) }
                return true
            }
            return resumptions
        }
        end(id, .clientClosed)
    }

    /// Ends a socket (once): the script's sends fail, its receive returns `nil`, the client's reader stops.
    private func end(_ id: Int, _ ending: Ending) {
        mutate { state in
            guard var wire = state.wires[id], wire.ending == nil else { return [] }
            wire.ending = ending
            var resumptions: [Resumption] = wire.sending.map { sending in { sending.sender.resume(returning: false) } }
            wire.sending = []
            if let reader = wire.reader { resumptions.append { reader.resume(returning: .ended(ending)) } }
            wire.reader = nil
            if let receiver = wire.receiver { resumptions.append { receiver.resume(returning: nil) } }
            wire.receiver = nil
            state.wires[id] = wire
            state.endedConnections += 1
            return resumptions + state.releaseSendingWaiters()
        }
    }
}

extension WebSocketMessage {
    /// The message's size in bytes, as the client's size limit counts it.
    fileprivate var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let data): data.count
        }
    }
}
