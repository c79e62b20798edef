import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// Collects a response body into one buffer and checks the status, on the event loop.
final class Collector: HTTPClientResponseDelegate, Sendable {
    typealias Response = ByteBuffer

    private let state = Mutex<(status: UInt, body: ByteBuffer)>((0, ByteBuffer()))

    func didReceiveHead(task: HTTPClient.Task<ByteBuffer>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        state.withLock { $0.status = head.status.code }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<ByteBuffer>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        state.withLock { state in
            var buffer = buffer
            state.body.writeBuffer(&buffer)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<ByteBuffer>) throws -> ByteBuffer {
        let (status, body) = state.withLock { $0 }
        guard status == 200 else { throw UnexpectedStatus(status: Int(status)) }
        return body
    }
}
