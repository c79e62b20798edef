import Foundation
import Synchronization

/// Where a ``Transport`` delivers a response: the head once, then the body chunk by chunk.
///
/// Ferry makes one sink per request and reuses it for each redirect hop. It collects the body in memory with at
/// most one copy per byte (it reserves `Content-Length` up front when the body is not content-encoded), enforces
/// the body size limit, and stamps the timeline. Its methods are cheap and never block, so a transport may call
/// them from a synchronous callback.
public final class ResponseSink: Sendable {
    struct State {
        var head: HTTPResponse?
        var body = Data()
        var receivedBytes: Int64 = 0
        var reserved = false
        var firstResponseByte: ContinuousClock.Instant?
        var lastActivity: ContinuousClock.Instant
        var bytesSent: Int64 = 0
        var urls: [URL] = []
        var transactions: [TransactionMetrics] = []
    }

    private let state: Mutex<State>
    private let limit: Int64

    init(limit: Int64, start: ContinuousClock.Instant) {
        self.limit = limit
        self.state = Mutex(State(lastActivity: start))
    }

    /// Takes the head of the response.
    /// - Parameter head: The status, headers and URL.
    /// - Throws: ``FerryError`` with reason ``FerryError/Reason/bodyTooLarge(limit:)`` when `Content-Length` is over
    ///   the limit; the transport must then stop.
    public func receive(_ head: HTTPResponse) throws(FerryError) {
        let now = ContinuousClock.now
        let limit = self.limit
        let reservation: Int64? = head.headers.contains("Content-Encoding") ? nil : head.expectedContentLength
        if let reservation, reservation > limit {
            throw FerryError(.bodyTooLarge(limit: limit), response: head)
        }
        state.withLock { state in
            state.head = head
            state.body = Data()
            state.receivedBytes = 0
            if state.firstResponseByte == nil { state.firstResponseByte = now }
            state.lastActivity = now
            state.reserved = false
            if let reservation, reservation > 0 {
                state.body.reserveCapacity(Int(reservation))
                state.reserved = true
            }
        }
    }

    /// Takes the next chunk of the body.
    /// - Parameter chunk: The bytes, in order.
    /// - Throws: ``FerryError`` with reason ``FerryError/Reason/bodyTooLarge(limit:)`` when the body grows over the
    ///   limit; the transport must then stop.
    public func receive(_ chunk: Data) throws(FerryError) {
        let now = ContinuousClock.now
        let limit = self.limit
        let overflow: HTTPResponse?? = state.withLock { state in
            let total = state.receivedBytes + Int64(chunk.count)
            guard total <= limit else { return .some(state.head) }
            state.receivedBytes = total
            state.lastActivity = now
            if state.body.isEmpty && !state.reserved {
                state.body = chunk  // shares the chunk's storage: no copy for single-chunk bodies
            } else {
                state.body.append(chunk)
            }
            return .none
        }
        if case .some(let head) = overflow {
            throw FerryError(.bodyTooLarge(limit: limit), response: head)
        }
    }

    /// Marks progress that carries no body bytes (an upload chunk sent), so the idle timeout does not fire.
    public func noteActivity() {
        let now = ContinuousClock.now
        state.withLock { $0.lastActivity = now }
    }

    /// Records the phases the transport measured for this hop's transactions (see ``Metrics/transactions``).
    /// - Parameter transactions: The transactions, in order.
    public func record(_ transactions: [TransactionMetrics]) {
        state.withLock { $0.transactions.append(contentsOf: transactions) }
    }

    /// Starts a new hop: forgets the previous hop's head and body.
    func beginHop(to url: URL) {
        state.withLock { state in
            state.head = nil
            state.body = Data()
            state.receivedBytes = 0
            state.reserved = false
            state.urls.append(url)
        }
    }

    func addBytesSent(_ count: Int64) {
        state.withLock { $0.bytesSent += count }
    }

    /// The metrics so far; `redirectCount` is the number of hops after the first.
    var metrics: Metrics {
        state.withLock { state in
            Metrics(
                bytesSent: state.bytesSent, bytesReceived: state.receivedBytes,
                redirectCount: max(0, state.urls.count - 1), urls: state.urls,
                transactions: state.transactions)
        }
    }

    var lastActivity: ContinuousClock.Instant { state.withLock { $0.lastActivity } }
    var head: HTTPResponse? { state.withLock { $0.head } }
    var firstResponseByte: ContinuousClock.Instant? { state.withLock { $0.firstResponseByte } }
    var receivedBytes: Int64 { state.withLock { $0.receivedBytes } }

    /// Hands over the body collected so far, leaving the sink empty.
    func takeBody() -> Data {
        state.withLock { state in
            let body = state.body
            state.body = Data()
            return body
        }
    }
}
