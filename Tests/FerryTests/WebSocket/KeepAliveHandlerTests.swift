#if WebSocket
@testable import Ferry
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

/// The keep-alive handler in an `EmbeddedChannel`, on the embedded loop's clock: pings go out each interval, an
/// unanswered one closes with 1001, and reading paused by back-pressure is never taken for a dead peer.
@Suite("WebSocket keep-alive handler (WebSocket trait)")
struct KeepAliveHandlerTests {
    /// The consumer's end of the pipeline: holds back `read` while closed, as the async channel does when full.
    final class ReadGate: ChannelOutboundHandler {
        typealias OutboundIn = WebSocketFrame
        var isOpen = true
        private(set) var heldBack = false

        func read(context: ChannelHandlerContext) {
            guard isOpen else {
                heldBack = true
                return
            }
            heldBack = false
            context.read()
        }
    }

    struct Harness {
        let channel: EmbeddedChannel
        let gate: ReadGate
        let inbox = WebSocketInbox()
        let interval = TimeAmount.seconds(1)

        init() throws {
            channel = EmbeddedChannel()
            gate = ReadGate()
            try channel.pipeline.syncOperations.addHandler(
                KeepAliveHandler(interval: .seconds(1), inbox: inbox))
            try channel.pipeline.syncOperations.addHandler(gate)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        }

        /// Advances the clock by one interval and returns the frames the handler wrote.
        func tick() throws -> [WebSocketFrame] {
            channel.embeddedEventLoop.advanceTime(by: interval)
            var frames: [WebSocketFrame] = []
            while let frame = try channel.readOutbound(as: WebSocketFrame.self) { frames.append(frame) }
            return frames
        }

        /// A frame from the server, then the read burst's end, then (if the gate lets it) the next read.
        func receive(_ opcode: WebSocketOpcode) throws {
            try channel.writeInbound(WebSocketFrame(fin: true, opcode: opcode, data: ByteBuffer()))
            _ = try channel.readInbound(as: WebSocketFrame.self)
            channel.embeddedEventLoop.run()  // what the handler looks at once the event is over
            channel.read()
            channel.embeddedEventLoop.run()
        }
    }

    @Test func answeredPingsKeepTheSocketOpen() throws {
        let harness = try Harness()
        for _ in 0..<5 {
            #expect(try harness.tick().map(\.opcode) == [.ping])
            try harness.receive(.pong)
        }
        #expect(harness.channel.isActive)
        #expect(harness.inbox.fault == nil)
    }

    @Test func anyFrameCountsAsAnAnswer() throws {
        let harness = try Harness()
        #expect(try harness.tick().map(\.opcode) == [.ping])
        try harness.receive(.text)
        #expect(try harness.tick().map(\.opcode) == [.ping])
        #expect(harness.inbox.fault == nil)
    }

    @Test func anUnansweredPingClosesWithGoingAway() throws {
        let harness = try Harness()
        #expect(try harness.tick().map(\.opcode) == [.ping])
        let frames = try harness.tick()
        #expect(frames.map(\.opcode) == [.connectionClose])
        var payload = try #require(frames.first).data
        #expect(payload.readWebSocketErrorCode() == .goingAway)
        #expect(harness.inbox.fault == .goingAway)
        #expect(!harness.channel.isActive)
        // and it pings no more
        #expect(try harness.tick().isEmpty)
    }

    /// Holds every write, as a socket whose send buffer a gone peer never drains: no write completes until the
    /// channel closes.
    final class StuckWrites: ChannelOutboundHandler {
        typealias OutboundIn = WebSocketFrame
        private var held: [EventLoopPromise<Void>] = []

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if let promise { held.append(promise) }
        }

        func flush(context: ChannelHandlerContext) {}

        func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
            for promise in held { promise.fail(ChannelError.ioOnClosedChannel) }
            held = []
            context.close(mode: mode, promise: promise)
        }
    }

    @Test func aDeadPeerIsClosedEvenWhenTheCloseFrameCannotGoOut() throws {
        // Given a socket whose writes never complete (the peer is gone and the send buffer is full)
        let harness = try Harness()
        try harness.channel.pipeline.syncOperations.addHandler(StuckWrites(), position: .first)
        // When a ping goes unanswered for an interval
        harness.channel.embeddedEventLoop.advanceTime(by: harness.interval)
        harness.channel.embeddedEventLoop.advanceTime(by: harness.interval)
        // Then the socket is closed as gone, without waiting for its close frame to be written
        #expect(harness.inbox.fault == .goingAway)
        #expect(!harness.channel.isActive)
    }

    @Test func pausedReadingIsNotADeadPeer() throws {
        let harness = try Harness()
        #expect(try harness.tick().map(\.opcode) == [.ping])
        // The consumer falls behind: a message arrives and the next read is held back, for many intervals.
        harness.gate.isOpen = false
        try harness.receive(.text)
        #expect(harness.gate.heldBack)
        for _ in 0..<5 { #expect(try harness.tick().isEmpty) }
        #expect(harness.channel.isActive)
        // Reading resumes: a fresh ping, and only that one is judged.
        harness.gate.isOpen = true
        harness.channel.read()
        #expect(try harness.tick().map(\.opcode) == [.ping])
        #expect(try harness.tick().map(\.opcode) == [.connectionClose])
        #expect(harness.inbox.fault == .goingAway)
    }

    @Test func aPauseBetweenTwoTicksForgetsThePing() throws {
        let harness = try Harness()
        #expect(try harness.tick().map(\.opcode) == [.ping])
        // A read burst with no whole frame (the pong's first bytes, say), then the consumer holds the next read back
        harness.gate.isOpen = false
        harness.channel.pipeline.fireChannelReadComplete()
        harness.channel.embeddedEventLoop.run()
        harness.channel.read()
        #expect(harness.gate.heldBack)
        // and lets it go before the next tick: the ping is forgotten and a fresh one goes out.
        harness.gate.isOpen = true
        harness.channel.read()
        #expect(try harness.tick().map(\.opcode) == [.ping])
        #expect(harness.channel.isActive)
        #expect(harness.inbox.fault == nil)
        // The fresh one is judged as usual.
        #expect(try harness.tick().map(\.opcode) == [.connectionClose])
    }
}
#endif
