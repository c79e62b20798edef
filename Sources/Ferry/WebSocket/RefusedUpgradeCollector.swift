#if WebSocket
import NIOCore
import NIOHTTP1

/// The head and the first bytes of the body of a response that refused the upgrade.
struct RefusedResponse: Sendable {
    var head: HTTPResponseHead
    var body: ByteBuffer
}

/// Collects a refused upgrade's response (head, and up to ``FerryError/bodyPrefixLimit`` bytes of body), then
/// closes the connection: at the body's end, or as soon as the prefix is full, so that a body that never ends (a
/// stream served where a socket was asked for) does not hold the handshake until its timeout.
final class RefusedUpgradeCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let promise: EventLoopPromise<RefusedResponse>
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    private var done = false

    init(promise: EventLoopPromise<RefusedResponse>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body(var bytes):
            let room = FerryError.bodyPrefixLimit - body.readableBytes
            if room > 0, let slice = bytes.readSlice(length: min(room, bytes.readableBytes)) {
                var slice = slice
                body.writeBuffer(&slice)
            }
            if body.readableBytes >= FerryError.bodyPrefixLimit { complete(context: context) }
        case .end:
            complete(context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        complete(context: context)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if head == nil, !done {
            done = true
            promise.fail(error)
        }
        complete(context: context)
    }

    private func complete(context: ChannelHandlerContext) {
        guard !done else { return }
        done = true
        if let head {
            promise.succeed(RefusedResponse(head: head, body: body))
        } else {
            promise.fail(ChannelError.inputClosed)
        }
        context.close(promise: nil)
    }
}
#endif
