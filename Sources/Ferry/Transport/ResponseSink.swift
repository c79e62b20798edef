import Foundation
import Synchronization

/// Where a ``Transport`` delivers a response: the head once, then the body chunk by chunk.
///
/// Ferry makes one sink per request and reuses it for each redirect hop. Depending on the request it collects the
/// body in memory (with at most one copy per byte; it reserves `Content-Length` up front when the body is not
/// content-encoded), writes it to a download file, or hands it to a stream consumer. It enforces the body size
/// limit, discards the bodies of redirects Ferry will follow, reports progress and stamps the timeline. Its
/// synchronous methods are cheap and never block, so a transport may call them from a synchronous callback; a
/// transport that can pause reading calls ``write(_:)`` instead, which waits while a stream consumer is behind.
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
        /// Decides, from a hop's head, the request Ferry sends next; `nil` when the head is the final answer.
        var redirect: (@Sendable (HTTPResponse) -> Request?)?
        var pendingRedirect: Request?
        /// Where this hop's body goes.
        var route = Route.memory
        /// The total the download progress reports, when known.
        var expectedTotal: Int64?
        /// Bytes that were there before this transfer (a resumed download's partial file).
        var baseOffset: Int64 = 0
    }

    enum Route {
        case memory, discard, file, stream
    }

    private let state: Mutex<State>
    private let limit: Int64
    let destination: BodyDestination
    let downloadProgress: ProgressReporter?
    let uploadProgress: ProgressReporter?

    init(
        limit: Int64, start: ContinuousClock.Instant, destination: BodyDestination = .memory,
        downloadProgress: ProgressReporter? = nil, uploadProgress: ProgressReporter? = nil
    ) {
        self.limit = limit
        self.destination = destination
        self.downloadProgress = downloadProgress
        self.uploadProgress = uploadProgress
        self.state = Mutex(State(lastActivity: start))
    }

    /// Takes the head of the response.
    /// - Parameter head: The status, headers and URL.
    /// - Throws: ``FerryError`` when the body cannot be taken: a `Content-Length` over the limit
    ///   (``FerryError/Reason/bodyTooLarge(limit:)``), a download file that cannot be written, a range answer that
    ///   does not continue a resumed download. The transport must then stop.
    public func receive(_ head: HTTPResponse) throws(FerryError) {
        let now = ContinuousClock.now
        let redirect = state.withLock { $0.redirect }
        let next = redirect?(head)
        let route = next != nil ? Route.discard : finalRoute(for: head)
        let decoded = head.headers.contains("Content-Encoding")
        let length: Int64? = decoded ? nil : head.expectedContentLength
        var baseOffset: Int64 = 0
        var total = length
        switch route {
        case .memory:
            if let length, length > limit { throw FerryError(.bodyTooLarge(limit: limit), response: head) }
        case .file:
            if case .file(let file) = destination {
                baseOffset = try file.begin(head)
                total = length.map { $0 + baseOffset }
            }
        case .stream:
            if case .stream(let buffer) = destination { buffer.publish(head) }
        case .discard:
            break
        }
        state.withLock { state in
            state.head = head
            state.pendingRedirect = next
            state.route = route
            state.body = Data()
            state.receivedBytes = 0
            state.baseOffset = baseOffset
            state.expectedTotal = total
            if state.firstResponseByte == nil { state.firstResponseByte = now }
            state.lastActivity = now
            state.reserved = false
            if route == .memory, let length, length > 0 {
                state.body.reserveCapacity(Int(length))
                state.reserved = true
            }
        }
        if route != .discard { downloadProgress?.update(completed: baseOffset, total: total, at: now) }
    }

    private func finalRoute(for head: HTTPResponse) -> Route {
        switch destination {
        case .memory: .memory
        // An error answer to a download stays in memory, for the error's body prefix; the file is not touched.
        case .file: head.isSuccessful ? .file : .memory
        case .stream: .stream
        }
    }

    /// Takes the next chunk of the body.
    /// - Parameter chunk: The bytes, in order.
    /// - Throws: ``FerryError`` when the chunk cannot be taken (over the size limit, a full stream buffer under the
    ///   failing policy, a file that cannot be written); the transport must then stop.
    public func receive(_ chunk: Data) throws(FerryError) {
        let now = ContinuousClock.now
        let limit = self.limit
        let (route, head, total, completed, overflow): (Route, HTTPResponse?, Int64?, Int64, Bool) =
            state.withLock { state in
                state.lastActivity = now
                let received = state.receivedBytes + Int64(chunk.count)
                if state.route == .memory {
                    guard received <= limit else { return (.memory, state.head, nil, 0, true) }
                    if state.body.isEmpty && !state.reserved {
                        state.body = chunk  // shares the chunk's storage: no copy for single-chunk bodies
                    } else {
                        state.body.append(chunk)
                    }
                }
                state.receivedBytes = received
                return (state.route, state.head, state.expectedTotal, state.baseOffset + received, false)
            }
        if overflow { throw FerryError(.bodyTooLarge(limit: limit), response: head) }
        switch (route, destination) {
        case (.file, .file(let file)):
            try file.write(chunk)
        case (.stream, .stream(let buffer)):
            try buffer.push(chunk)
        default:
            break
        }
        if route != .discard { downloadProgress?.update(completed: completed, total: total, at: now) }
    }

    /// Takes the next chunk of the body, waiting while a stream consumer is behind: for transports that can pause
    /// reading (back-pressure). Other destinations never wait.
    /// - Parameter chunk: The bytes, in order.
    /// - Throws: As ``receive(_:)-(Data)``, and ``FerryError/Reason/cancelled`` when the consumer went away.
    public func write(_ chunk: Data) async throws(FerryError) {
        if case .stream(let buffer) = destination, state.withLock({ $0.route == .stream }) {
            try await buffer.waitForCapacity(adding: chunk.count)
            noteActivity()
        }
        try receive(chunk)
    }

    /// Marks progress that carries no body bytes, so the idle timeout does not fire.
    public func noteActivity() {
        let now = ContinuousClock.now
        state.withLock { $0.lastActivity = now }
    }

    /// Records upload progress.
    /// - Parameters:
    ///   - totalBytesSent: Body bytes sent so far on this hop.
    ///   - expected: The body's size, when known.
    public func noteSent(totalBytesSent: Int64, expected: Int64?) {
        noteActivity()
        uploadProgress?.update(completed: totalBytesSent, total: expected)
    }

    /// Records the phases the transport measured for this hop's transactions (see ``Metrics/transactions``).
    /// - Parameter transactions: The transactions, in order.
    public func record(_ transactions: [TransactionMetrics]) {
        state.withLock { $0.transactions.append(contentsOf: transactions) }
    }

    /// Starts a new hop: forgets the previous hop's head and body.
    /// - Parameters:
    ///   - url: The hop's URL.
    ///   - redirect: Given the hop's head, the request to send next, or `nil` when the head is the final answer.
    func beginHop(to url: URL, redirect: @escaping @Sendable (HTTPResponse) -> Request?) {
        state.withLock { state in
            state.head = nil
            state.pendingRedirect = nil
            state.redirect = redirect
            state.route = .memory
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
    var pendingRedirect: Request? { state.withLock { $0.pendingRedirect } }
    var firstResponseByte: ContinuousClock.Instant? { state.withLock { $0.firstResponseByte } }
    var receivedBytes: Int64 { state.withLock { $0.receivedBytes } }

    /// Whether a stream consumer is behind and the transport is waiting for it: not the server's idleness.
    var isWaitingForConsumer: Bool {
        guard case .stream(let buffer) = destination else { return false }
        return buffer.isProducerWaiting
    }

    /// Hands over the body collected in memory so far, leaving the sink empty.
    func takeBody() -> Data {
        state.withLock { state in
            let body = state.body
            state.body = Data()
            return body
        }
    }
}

/// Where the body of the final response goes.
enum BodyDestination: Sendable {
    /// Collected in memory, for serializers.
    case memory
    /// Written to a download file.
    case file(DownloadFile)
    /// Handed to a stream consumer.
    case stream(StreamBuffer)
}
