#if WebSocket
import NIOCore
import NIOWebSocket

/// Keep-alive pings on the event loop: every `interval` a ping, unless the last one is still unanswered, in which case
/// the peer is taken for gone: the inbox notes 1001 (going away), a close frame with that code goes out and the
/// connection closes. Any frame read counts as an answer (a pong, or data: either shows the peer is there). Sitting
/// in the channel's pipeline, it sees every frame the socket reads, whether or not anyone is reading messages.
///
/// Reading pauses when the frames read wait for a slow consumer (the async channel's buffer is full and it holds
/// back `read`): the answer may then sit unread in the socket. A ping is judged only after a whole interval of
/// reading without a pause; one that a pause overlapped is forgotten, and the next tick pings afresh.
final class KeepAliveHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let interval: TimeAmount
    private let inbox: WebSocketInbox
    /// A ping went out and nothing was read since.
    private var unanswered = false
    /// A `read` went down the pipeline and no read burst has completed since: the socket is being read.
    private var reading = false
    /// Reading paused while the current ping was unanswered.
    private var pausedSincePing = false
    private var timer: RepeatedTask?

    init(interval: Duration, inbox: WebSocketInbox) {
        self.interval = TimeAmount(interval)
        self.inbox = inbox
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // With autoRead on, the channel has asked for a read already, before this handler was there.
        reading = true
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            let (handler, context) = bound.value
            handler.tick(context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        unanswered = false
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        reading = false
        context.fireChannelReadComplete()
        guard unanswered else { return }
        // autoRead asks for the next read right after this event, unless the consumer holds it back; look once
        // the event is over.
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.eventLoop.execute {
            let handler = bound.value
            if !handler.reading { handler.pausedSincePing = true }
        }
    }

    func read(context: ChannelHandlerContext) {
        reading = true
        context.read()
    }

    private func tick(context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        if !reading || pausedSincePing {
            // Reading is (or was) paused: an answer may be waiting unread, so this ping proves nothing.
            unanswered = false
            pausedSincePing = false
            guard reading else { return }
        }
        guard !unanswered else {
            timer?.cancel()
            timer = nil
            inbox.noteFault(.goingAway)
            var payload = context.channel.allocator.buffer(capacity: 2)
            payload.write(webSocketErrorCode: .goingAway)
            let close = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload)
            // Closed at once, not when the write completes: the flush hands the frame to the kernel when the send
            // buffer has room, and a gone peer may never make room, which would keep the dead socket open.
            context.writeAndFlush(wrapOutboundOut(close), promise: nil)
            context.close(promise: nil)
            return
        }
        unanswered = true
        let ping = WebSocketFrame(
            fin: true, opcode: .ping, maskKey: .random(), data: context.channel.allocator.buffer(string: "ferry"))
        context.writeAndFlush(wrapOutboundOut(ping), promise: nil)
    }
}
#endif
