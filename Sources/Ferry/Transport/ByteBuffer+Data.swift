#if AsyncHTTPClient || WebSocket
import Foundation
import NIOCore

extension Data {
    /// A copy of `buffer`'s readable bytes.
    ///
    /// Through the raw bytes: `Data(buffer.readableBytesView)` asks the runtime, at each buffer, whether the view is
    /// contiguous (a protocol conformance lookup), which cost about 1.2 µs a request with 64 requests in flight on
    /// AsyncHTTPClient (Benchmarks/README.md, "Where the 64-in-flight gap on AsyncHTTPClient goes").
    init(copying buffer: ByteBuffer) {
        self = buffer.withUnsafeReadableBytes { Data($0) }
    }
}
#endif
