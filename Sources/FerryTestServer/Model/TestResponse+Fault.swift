import Foundation

extension TestResponse {
    /// A scripted protocol failure: exact bytes on the wire, then a close, a reset or a stall.
    ///
    /// Every fault ends on its own or when the server shuts down, so none can hang the server.
    public struct Fault: Sendable {
        /// What the server does after sending ``bytes``.
        public enum Ending: Sendable, Hashable {
            /// Closes cleanly: the peer reads the end of the stream (FIN).
            case close
            /// Closes with `SO_LINGER {1, 0}`: the peer gets a TCP RST (`ECONNRESET`).
            case reset
            /// Keeps the connection open without sending anything more until the peer leaves or the server shuts down.
            case stall
            /// Sends ``Fault/bytes`` again and again until the peer leaves or the server shuts down.
            case repeatBytes
        }

        /// The raw bytes sent first (possibly none, possibly not HTTP at all).
        public var bytes: Data
        /// What happens after ``bytes``.
        public var ending: Ending

        /// Creates a fault.
        /// - Parameters:
        ///   - bytes: the raw bytes to send first.
        ///   - ending: what to do afterwards.
        public init(sending bytes: Data = Data(), then ending: Ending) {
            self.bytes = bytes
            self.ending = ending
        }

        /// Sends nothing and resets the connection.
        public static let reset = Fault(then: .reset)

        /// Sends nothing and closes the connection cleanly.
        public static let close = Fault(then: .close)

        /// Sends nothing and never answers.
        public static let stallBeforeHead = Fault(then: .stall)

        /// Sends `HELLO THIS IS NOT HTTP` and closes.
        public static let garbage = Fault(sending: Data("HELLO THIS IS NOT HTTP\r\n\r\n".utf8), then: .close)

        /// A chunked response whose second chunk-size line is `zz`, then a close.
        public static let badChunk = Fault(
            sending: ResponseHead.render(
                status: 200,
                headers: [
                    ("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked"),
                ]) + Data("5\r\nhello\r\nzz\r\n".utf8),
            then: .close
        )

        /// A head promising `declaredLength` bytes, `sentLength` pattern bytes, then a reset.
        /// - Parameters:
        ///   - declaredLength: the `Content-Length` sent.
        ///   - sentLength: how many body bytes are actually sent.
        /// - Returns: the fault.
        public static func resetMidBody(declaredLength: Int = 100_000, sentLength: Int = 1_000) -> Fault {
            partialBody(declaredLength: declaredLength, sentLength: sentLength, then: .reset)
        }

        /// A head promising `declaredLength` bytes, `sentLength` pattern bytes, then a clean close.
        /// - Parameters:
        ///   - declaredLength: the `Content-Length` sent.
        ///   - sentLength: how many body bytes are actually sent.
        /// - Returns: the fault.
        public static func truncatedBody(declaredLength: Int = 1_000, sentLength: Int = 500) -> Fault {
            partialBody(declaredLength: declaredLength, sentLength: sentLength, then: .close)
        }

        /// A head promising `declaredLength` bytes, `sentLength` pattern bytes, then nothing more.
        /// - Parameters:
        ///   - declaredLength: the `Content-Length` sent.
        ///   - sentLength: how many body bytes are actually sent.
        /// - Returns: the fault.
        public static func stalledBody(declaredLength: Int = 1_000, sentLength: Int = 10) -> Fault {
            partialBody(declaredLength: declaredLength, sentLength: sentLength, then: .stall)
        }

        /// A response whose `X-Huge` header line is `size` bytes long, then a close.
        /// - Parameter size: the length of the header value.
        /// - Returns: the fault.
        public static func hugeHeader(size: Int = 1 << 20) -> Fault {
            var bytes = Data("HTTP/1.1 200 OK\r\nX-Huge: ".utf8)
            bytes.append(Data(repeating: UInt8(ascii: "a"), count: max(0, size)))
            bytes.append(Data("\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8))
            return Fault(sending: bytes, then: .close)
        }

        /// A head with `Content-Length: declaredLength` followed by the first `sentLength` pattern bytes.
        static func partialBody(
            status: Int = 200,
            headers: [(name: String, value: String)] = [("Content-Type", "application/octet-stream")],
            declaredLength: Int,
            sentLength: Int,
            offset: Int = 0,
            then ending: Ending
        ) -> Fault {
            var bytes = ResponseHead.render(
                status: status, headers: headers + [("Content-Length", "\(declaredLength)")])
            bytes.append(PatternBytes.make(count: min(sentLength, declaredLength), offset: offset))
            return Fault(sending: bytes, then: ending)
        }
    }

    /// A response that breaks the exchange; see ``Fault``.
    /// - Parameter fault: the fault.
    /// - Returns: the response.
    public static func fault(_ fault: Fault) -> TestResponse {
        TestResponse(status: 0, body: .fault(fault))
    }
}
