#if WebSocket
import NIOCore
import NIOWebSocket

/// Notes in the inbox what the frames read say below the engine: each pong (for ``WebSocketTask/ping(_:)``, as the
/// connection reads, whether or not anyone reads messages) and the frame decoder's errors (a frame over the size
/// limit, a malformed frame), so that the end of the socket says why the engine closed it. Passes everything on.
final class FrameRecorder: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    private let inbox: WebSocketInbox

    init(inbox: WebSocketInbox) {
        self.inbox = inbox
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        if frame.opcode == .pong { inbox.pongArrived(payload: frame.unmaskedData.readableBytesView) }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case NIOWebSocketError.invalidFrameLength:
            inbox.noteFault(.messageTooBig)
        case is NIOWebSocketError:
            inbox.noteFault(.protocolError)
        default:
            break
        }
        context.fireErrorCaught(error)
    }
}
#endif
