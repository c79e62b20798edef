import Foundation

extension TestResponse {
    /// A response body and the way it travels: all at once, in timed pieces, chunked, generated, or as a fault.
    public struct Body: Sendable {
        enum Storage: Sendable {
            case data(Data)
            case chunked([Data], delay: Duration)
            case paced([Data], interval: Duration)
            case pattern(Pattern)
            case fault(Fault)
        }

        /// Bytes generated on the fly: byte `i` is `UInt8((offset + i) % 251)`.
        struct Pattern: Sendable {
            var offset: Int
            var count: Int
            /// `nil` sends `Content-Length`; a size sends chunks of that many bytes.
            var chunkSize: Int?
        }

        let storage: Storage

        /// No body (`Content-Length: 0`).
        public static let empty = Body(storage: .data(Data()))

        /// A body sent at once with `Content-Length`.
        /// - Parameter data: the bytes.
        /// - Returns: the body.
        public static func data(_ data: Data) -> Body {
            Body(storage: .data(data))
        }

        /// A UTF-8 text body sent at once.
        /// - Parameter text: the text.
        /// - Returns: the body.
        public static func text(_ text: String) -> Body {
            Body(storage: .data(Data(text.utf8)))
        }

        /// A body sent with `Transfer-Encoding: chunked`, one chunk per element (empty elements are skipped, since an
        /// empty chunk would end the body).
        /// - Parameters:
        ///   - chunks: the chunks, in order.
        ///   - delay: the pause before every chunk but the first.
        /// - Returns: the body.
        public static func chunked(_ chunks: [Data], delay: Duration = .zero) -> Body {
            Body(storage: .chunked(chunks.filter { !$0.isEmpty }, delay: delay))
        }

        /// A body sent with `Content-Length`, written piece by piece with pauses in between (a slow server).
        /// - Parameters:
        ///   - pieces: the pieces, in order; `Content-Length` is their total size.
        ///   - interval: the pause before every piece but the first.
        /// - Returns: the body.
        public static func paced(_ pieces: [Data], interval: Duration) -> Body {
            Body(storage: .paced(pieces, interval: interval))
        }

        /// Deterministic bytes generated as they are sent, so that any size costs no memory:
        /// byte `i` is `UInt8((offset + i) % 251)`, the same as ``TestServer/patternBytes(count:offset:)``.
        /// - Parameters:
        ///   - count: how many bytes.
        ///   - offset: the index of the first byte in the pattern.
        ///   - chunkSize: `nil` to send `Content-Length`, or the size of each chunk to send them chunked.
        /// - Returns: the body.
        public static func pattern(count: Int, offset: Int = 0, chunkSize: Int? = nil) -> Body {
            Body(
                storage: .pattern(
                    Pattern(offset: max(0, offset), count: max(0, count), chunkSize: chunkSize.map { max(1, $0) })
                )
            )
        }

        /// Breaks the exchange instead of answering: see ``TestResponse/Fault``.
        /// The response's status and headers are ignored; the fault decides every byte.
        /// - Parameter fault: the fault.
        /// - Returns: the body.
        public static func fault(_ fault: Fault) -> Body {
            Body(storage: .fault(fault))
        }
    }
}
