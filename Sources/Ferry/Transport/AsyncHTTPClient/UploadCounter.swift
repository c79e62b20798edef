#if AsyncHTTPClient
import Foundation
import NIOCore

/// Counts request body bytes as AsyncHTTPClient pulls them, for upload progress and the metrics.
final class UploadCounter: Sendable {
    private let context: TransportContext
    private let expected: Int64?
    private let state = Locked(Int64(0))

    init(context: TransportContext, expected: Int64?) {
        self.context = context
        self.expected = expected
    }

    /// Adds bytes handed to the client.
    func add(_ count: Int) {
        let total = state.withLock { sent in
            sent += Int64(count)
            return sent
        }
        context.noteSent(totalBytesSent: total, expected: expected)
    }
}
#endif
