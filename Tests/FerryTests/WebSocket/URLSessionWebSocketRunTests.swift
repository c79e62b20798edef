import Foundation
import Testing

@testable import Ferry

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The socket's task of ``URLSessionWebSocket`` (URLSession's WebSockets, Apple platforms without the trait), run on
/// ``ScriptedWebSocketTask``, which answers Ferry's calls the way `URLSessionWebSocketTask` does: FoundationNetworking
/// here has no WebSockets to run it on. Each test ends with the socket's task finished, so none can hang unseen.
@Suite("URLSession's WebSocket socket task")
struct URLSessionWebSocketRunTests {
    private struct Started {
        let task: ScriptedWebSocketTask
        let inbox: WebSocketInbox
        let run: Task<Void, Never>
    }

    private func start(_ task: ScriptedWebSocketTask, options: WebSocketOptions = WebSocketOptions()) -> Started {
        let socket = URLSessionWebSocket(task: task)
        task.attach(socket)
        socket.opened(subprotocol: nil)
        let inbox = WebSocketInbox()
        let request = Request(url: URL(string: "http://127.0.0.1/ws")!)
        let head = HTTPResponse(statusCode: 101, url: URL(string: "ws://127.0.0.1/ws")!)
        let run = Task { await socket.run(options: options, inbox: inbox, request: request, head: head) }
        return Started(task: task, inbox: inbox, run: run)
    }

    @Test func aMessageIsReadOnlyWhenOneIsWantedAndACloseIsAnswered() async throws {
        // Given two messages waiting in URLSession
        let socket = start(ScriptedWebSocketTask(queued: [.message(.string("one")), .message(.data(Data([1, 2])))]))
        // When the consumer asks for one
        #expect(try await socket.inbox.next() == .text("one"))
        // Then only one was read from the task
        #expect(socket.task.receiveCount == 1)
        #expect(try await socket.inbox.next() == .binary(Data([1, 2])))
        #expect(socket.task.receiveCount == 2)
        // When the consumer closes
        socket.inbox.requestClose(.normalClosure, reason: "done")
        await socket.run.value
        // Then the close frame went out once, the server's answer ended the socket, and the messages end
        #expect(socket.task.sentCloses == [ScriptedWebSocketTask.Close(code: 1000, reason: "done")])
        #expect(socket.inbox.closeFrame == WebSocketClose(code: .normalClosure, reason: "done"))
        #expect(try await socket.inbox.next() == nil)
    }

    @Test func theServersCloseEndsTheMessagesWithItsCodeAndNothingIsSentBack() async throws {
        let socket = start(ScriptedWebSocketTask(queued: [.serverClose(code: 1001, reason: "restart")]))
        #expect(try await socket.inbox.next() == nil)
        await socket.run.value
        #expect(socket.inbox.closeFrame == WebSocketClose(code: .goingAway, reason: "restart"))
        // URLSession answered the close itself; Ferry sends nothing on a task that completed
        #expect(socket.task.sentCloses.isEmpty)
    }

    @Test func aMessageOverTheLimitClosesWith1009() async throws {
        let tooBig = NSError(domain: NSPOSIXErrorDomain, code: Int(EMSGSIZE))
        let socket = start(ScriptedWebSocketTask(queued: [.failure(tooBig)]))
        let error = await #expect(throws: FerryError.self) { try await socket.inbox.next() }
        #expect(error?.reason == .webSocketClosed(.messageTooBig))
        await socket.run.value
        #expect(socket.task.sentCloses.first?.code == 1009)
        #expect(socket.inbox.closeFrame?.code == .messageTooBig)
    }

    @Test func aDroppedConnectionFailsTheMessages() async throws {
        let socket = start(ScriptedWebSocketTask(queued: [.drop]))
        let error = await #expect(throws: FerryError.self) { try await socket.inbox.next() }
        #expect(error?.reason == .transport(.connectionLost))
        #expect(error?.response?.statusCode == 101)
        await socket.run.value
        #expect(socket.inbox.closeFrame == nil)
    }

    @Test func anUnansweredKeepAlivePingClosesWith1001() async throws {
        // Given a server that never answers pings, and a consumer waiting for a message
        let socket = start(
            ScriptedWebSocketTask(queued: [], answersPings: false),
            options: WebSocketOptions(keepAliveInterval: .milliseconds(1)))
        // When a ping is still unanswered as the next falls due
        let error = await #expect(throws: FerryError.self) { try await socket.inbox.next() }
        // Then the peer is taken for gone: 1001 goes out and the waiting consumer learns why
        #expect(error?.reason == .webSocketClosed(.goingAway))
        await socket.run.value
        #expect(socket.task.pingCount >= 1)
        #expect(socket.task.sentCloses.map(\.code) == [1001])
    }

    @Test func aServerThatNeverAnswersTheCloseIsDroppedAfterTheCloseTimeout() async throws {
        // Given a server that ignores close frames, and a close timeout of zero
        let socket = start(
            ScriptedWebSocketTask(queued: [], answersCloses: false), options: WebSocketOptions(closeTimeout: .zero))
        // When the consumer closes
        socket.inbox.requestClose(.normalClosure, reason: "")
        // Then the socket's task still ends: the connection is dropped
        await socket.run.value
        #expect(socket.task.wasCancelled)
        #expect(socket.task.sentCloses.map(\.code) == [1000])
        #expect(socket.inbox.closeFrame?.code == .normalClosure)
    }

    @Test func aTLSRefusalIsWhatTheWaitingUpgradeGetsWhenURLSessionCancelsTheTask() async {
        let task = ScriptedWebSocketTask(queued: [])
        let socket = URLSessionWebSocket(task: task)
        task.attach(socket)
        let refusal = FerryError(
            .transport(.secureConnectionFailed), detail: .tlsFailed("no pinned key in the chain of 127.0.0.1"),
            underlyingError: nil)
        // Given a task awaiting the upgrade
        async let opening = socket.waitForOpen(timeout: nil)
        // When the delegate refuses the server's trust, and the cancelled task completes (as on Apple platforms)
        socket.refused(refusal)
        task.cancel()
        // Then the upgrade fails with the refusal, whether the waiter came before the completion or after it
        #expect(await opening == .refused(refusal))
        #expect(await socket.waitForOpen(timeout: nil) == .refused(refusal))
    }

    @Test func aCancelledConsumerClosesWith1001() async throws {
        let socket = start(ScriptedWebSocketTask(queued: []))
        let consumer = Task { try await socket.inbox.next() }
        consumer.cancel()
        let error = await #expect(throws: FerryError.self) { try await consumer.value }
        #expect(error?.reason == .cancelled)
        await socket.run.value
        #expect(socket.task.sentCloses.map(\.code) == [1001])
    }
}

/// A stand-in for `URLSessionWebSocketTask` on the calls ``URLSessionWebSocket`` makes, answering as URLSession does:
/// `receive()` waits for a message or throws once the socket ended; a close frame is answered by the server (its
/// close reported, then the task's completion); `cancel()` completes the task.
final class ScriptedWebSocketTask: WebSocketTaskDriving {
    /// What the server does next.
    enum Incoming {
        case message(URLSessionWebSocketTask.Message)
        case failure(any Error)
        case serverClose(code: Int, reason: String)
        case drop
    }

    /// A close frame Ferry sent.
    struct Close: Equatable {
        let code: Int
        let reason: String
    }

    private struct State {
        var queued: [Incoming]
        var socket: URLSessionWebSocket?
        var receiver: CheckedContinuation<URLSessionWebSocketTask.Message, any Error>?
        var receiveCount = 0
        var sentCloses: [Close] = []
        var pingCount = 0
        var cancelled = false
        var ended = false
        var closeCode = URLSessionWebSocketTask.CloseCode.invalid
    }

    private let state: Locked<State>
    private let answersPings: Bool
    private let answersCloses: Bool

    init(queued: [Incoming], answersPings: Bool = true, answersCloses: Bool = true) {
        state = Locked(State(queued: queued))
        self.answersPings = answersPings
        self.answersCloses = answersCloses
    }

    func attach(_ socket: URLSessionWebSocket) { state.withLock { $0.socket = socket } }

    var receiveCount: Int { state.withLock { $0.receiveCount } }
    var sentCloses: [Close] { state.withLock { $0.sentCloses } }
    var pingCount: Int { state.withLock { $0.pingCount } }
    var wasCancelled: Bool { state.withLock { $0.cancelled } }

    func receive() async throws -> URLSessionWebSocketTask.Message {
        let next: Incoming? = state.withLock { state in
            state.receiveCount += 1
            return state.queued.isEmpty ? nil : state.queued.removeFirst()
        }
        switch next {
        case .message(let message):
            return message
        case .failure(let error):
            throw error
        case .serverClose(let code, let reason):
            end(serverClose: (code, reason))
            throw URLError(.networkConnectionLost)
        case .drop:
            end(serverClose: nil)
            throw URLError(.networkConnectionLost)
        case nil:
            return try await withCheckedThrowingContinuation { continuation in
                let ended = state.withLock { state in
                    if !state.ended { state.receiver = continuation }
                    return state.ended
                }
                if ended { continuation.resume(throwing: URLError(.networkConnectionLost)) }
            }
        }
    }

    func sendPing(pong: @escaping @Sendable ((any Error)?) -> Void) {
        state.withLock { $0.pingCount += 1 }
        if answersPings { pong(nil) }
    }

    func cancel(with closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?) {
        let reason = reason.map { String(decoding: $0, as: UTF8.self) } ?? ""
        state.withLock { $0.sentCloses.append(Close(code: closeCode.rawValue, reason: reason)) }
        // The server answers with the same code and reason.
        if answersCloses { end(serverClose: (closeCode.rawValue, reason)) }
    }

    func cancel() {
        state.withLock { $0.cancelled = true }
        end(serverClose: nil)
    }

    var closeCode: URLSessionWebSocketTask.CloseCode { state.withLock { $0.closeCode } }
    var closeReason: Data? { nil }

    /// Ends the task as URLSession does: the server's close reported, the task completed, a waiting read failed.
    private func end(serverClose: (code: Int, reason: String)?) {
        let (socket, receiver, first) = state.withLock { state in
            defer { state.receiver = nil }
            let first = !state.ended
            state.ended = true
            if first, let serverClose {
                state.closeCode = URLSessionWebSocketTask.CloseCode(rawValue: serverClose.code) ?? .invalid
            }
            return (state.socket, state.receiver, first)
        }
        guard first else { return }
        if let serverClose {
            socket?.serverClosed(
                code: URLSessionWebSocketTask.CloseCode(rawValue: serverClose.code) ?? .invalid,
                reason: Data(serverClose.reason.utf8))
        }
        socket?.completed()
        receiver?.resume(throwing: URLError(.networkConnectionLost))
    }
}
