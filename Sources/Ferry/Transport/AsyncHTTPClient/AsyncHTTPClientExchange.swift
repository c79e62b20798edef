#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// One request on AsyncHTTPClient's delegate API: the callbacks (on the connection's event loop) resume the
/// pipeline with the head, then queue body parts for the pipeline to pull, pausing the engine's reads past a
/// watermark (real back-pressure). No task of its own: the engine's `HTTPClient.Task` is cancelled directly when
/// Ferry stops the request, so a timeout or `cancel()` needs no child task either.
final class AsyncHTTPClientExchange: HTTPClientResponseDelegate, ResponseBodySource, Sendable {
    typealias Response = Void
    typealias HeadContinuation = UnsafeContinuation<HTTPResponse, any Error>
    private typealias Machine = StateMachine<
        HeadContinuation, UnsafeContinuation<Void, Never>, EventLoopPromise<Void>, HTTPClient.Task<Void>
    >

    private let context: TransportContext
    private let url: URL
    private let expectedUpload: Int64?
    private let state = Locked(Machine())
    private let sent = Atomic<Int64>(0)

    init(context: TransportContext, url: URL, expectedUpload: Int64?) {
        self.context = context
        self.url = url
        self.expectedUpload = expectedUpload
    }

    /// Starts the request with `execute`, resuming `continuation` with the head.
    func start(_ continuation: HeadContinuation, execute: (AsyncHTTPClientExchange) -> HTTPClient.Task<Void>) {
        if let error = state.withLock({ $0.start(continuation) }) {
            return continuation.resume(throwing: error)
        }
        let task = execute(self)
        if state.withLock({ $0.attach(task) }) { task.cancel() }
    }

    /// Ferry stops the request (a timeout, `cancel()`, the caller's cancellation, the body released unread).
    func stop(_ error: FerryError) {
        let task = state.withLock { $0.task }
        end(error, onEventLoop: nil)
        task?.cancel()
    }

    private func end(_ error: FerryError?, onEventLoop eventLoop: (any EventLoop)?) {
        switch state.withLock({ $0.end(error, onEventLoop: eventLoop != nil) }) {
        case .none: break
        case .failHead(let continuation, let error): continuation.resume(throwing: error)
        case .flush(let scheduling, let paused):
            paused?.fail(error ?? FerryError(.cancelled))
            if scheduling { eventLoop?.execute { self.flush() } }
        case .resume(let head, let consumer, let paused):
            head.map { continuation, head in continuation.resume(returning: head) }
            consumer?.resume()
            paused?.fail(error ?? FerryError(.cancelled))
        }
    }

    /// Hands on what the event loop's last tick brought: the head, and the consumer's next chunks or end.
    private func flush() {
        let (head, consumer) = state.withLock { $0.flush() }
        head.map { continuation, head in continuation.resume(returning: head) }
        consumer?.resume()
    }

    // MARK: HTTPClientResponseDelegate (on the event loop)

    func didSendRequestPart(task: HTTPClient.Task<Void>, _ part: IOData) {
        let total = sent.add(Int64(part.readableBytes), ordering: .relaxed).newValue
        context.noteSent(totalBytesSent: total, expected: expectedUpload)
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        context.noteActivity()
        var headers = HTTPHeaders()
        headers.reserveCapacity(head.headers.count)
        for field in head.headers { headers.add(name: field.name, value: field.value) }
        let response = HTTPResponse(
            statusCode: Int(head.status.code), headers: headers, url: url, httpVersion: Self.versionText(head.version))
        if state.withLock({ $0.receiveHead(response) }) { task.eventLoop.execute { self.flush() } }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        context.noteActivity()
        let part = Data(copying: buffer)
        let eventLoop = task.eventLoop
        switch state.withLock({ $0.receive(part) { eventLoop.makePromise(of: Void.self) } }) {
        case .proceed(let flush):
            if flush { eventLoop.execute { self.flush() } }
            return eventLoop.makeSucceededVoidFuture()
        case .pause(let promise, let flush):
            if flush { eventLoop.execute { self.flush() } }
            return promise.futureResult
        case .drop:
            return eventLoop.makeSucceededVoidFuture()
        }
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        end(FerryError.mappingAsyncHTTPClient(error), onEventLoop: task.eventLoop)
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        // The whole body is here: from now on only the reader can hold the transfer back, not the server.
        context.noteBodyComplete()
        end(nil, onEventLoop: task.eventLoop)
    }

    /// `HTTP/1.1` and the like, without formatting a string for the common versions.
    static func versionText(_ version: HTTPVersion) -> String {
        switch (version.major, version.minor) {
        case (1, 1): "HTTP/1.1"
        case (2, 0): "HTTP/2.0"
        case (1, 0): "HTTP/1.0"
        default: "HTTP/\(version.major).\(version.minor)"
        }
    }

    // MARK: ResponseBodySource (in the reading task)

    func next() async throws -> Data? {
        while true {
            switch state.withLock({ $0.next() }) {
            case .chunk(let chunk, let paused):
                paused?.succeed()
                return chunk
            case .end:
                return nil
            case .fail(let error):
                throw error
            case .wait:
                await withTaskCancellationHandler {
                    await withUnsafeContinuation { continuation in
                        if !state.withLock({ $0.wait(continuation) }) { continuation.resume() }
                    }
                } onCancel: {
                    stop(FerryError(.cancelled))
                }
            }
        }
    }

    func cancel() {
        stop(FerryError(.cancelled))
    }
}
#endif
