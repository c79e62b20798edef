import Foundation

extension Timeline {
    /// One request Ferry handed to the transport: an attempt's first request, or a redirect it followed.
    ///
    /// A request that was neither retried nor redirected has one. Each retry starts a new attempt (``attempt``
    /// counts from 1); each redirect an attempt follows is an entry of its own with the same ``attempt`` and the next
    /// ``hop``, so ``isRedirect`` tells the two kinds apart.
    public struct Attempt: Sendable, Hashable {
        /// The attempt this request belongs to, from 1; a retry starts the next one.
        public var attempt: Int
        /// The redirects followed before this request within its attempt: 0 for the attempt's first request.
        public var hop: Int
        /// The method sent.
        public var method: HTTPMethod
        /// The URL sent.
        public var url: URL
        /// The header fields Ferry handed to the transport (which may add its own, such as `Host`).
        public var requestHeaders: HTTPHeaders
        /// The size of the request body held in memory, `0` without a body; `nil` for a file or a stream.
        public var requestBodySize: Int64?
        /// When Ferry began this request: before waiting for a slot under a limit
        /// (``Session/Configuration/maximumRequestsPerHost``).
        public var start: ContinuousClock.Instant {
            get { startMoment.instant }
            set { startMoment = Moment(newValue) }
        }
        /// How long the request waited for a slot; zero without limits.
        public var queueWait: Duration
        /// When its response head arrived; `nil` when none did.
        public var responseStart: ContinuousClock.Instant? {
            get { responseStartMoment?.instant }
            set { responseStartMoment = newValue.map(Moment.init) }
        }
        /// When it ended: a redirect's body was discarded, a retried response's body drained, the final body read,
        /// or the request failed.
        public var end: ContinuousClock.Instant {
            get { endMoment.instant }
            set { endMoment = Moment(newValue) }
        }
        /// The response head, when one arrived.
        public var response: HTTPResponse?
        /// Why this request failed, when it did (a rejected status that was retried is ``response``, not a failure).
        public var failure: FerryError.Reason?
        /// The wait before the next attempt, when this request's failure or status was retried.
        public var retryDelay: Duration?
        /// ``start``, ``responseStart`` and ``end`` as Ferry stores them (``Moment``).
        var startMoment: Moment
        var responseStartMoment: Moment?
        var endMoment: Moment

        /// Creates an attempt's record.
        /// - Parameters:
        ///   - attempt: The attempt, from 1.
        ///   - hop: The redirects followed before it within its attempt.
        ///   - method: The method.
        ///   - url: The URL.
        ///   - requestHeaders: The header fields sent.
        ///   - requestBodySize: The body's size, when known.
        ///   - start: When it began.
        ///   - queueWait: The wait for a slot.
        ///   - responseStart: When the head arrived.
        ///   - end: When it ended.
        ///   - response: The head.
        ///   - failure: Why it failed.
        ///   - retryDelay: The wait before the next attempt.
        public init(
            attempt: Int, hop: Int = 0, method: HTTPMethod, url: URL, requestHeaders: HTTPHeaders = [:],
            requestBodySize: Int64? = 0, start: ContinuousClock.Instant, queueWait: Duration = .zero,
            responseStart: ContinuousClock.Instant? = nil, end: ContinuousClock.Instant, response: HTTPResponse? = nil,
            failure: FerryError.Reason? = nil, retryDelay: Duration? = nil
        ) {
            self.init(
                attempt: attempt, hop: hop, method: method, url: url, requestHeaders: requestHeaders,
                requestBodySize: requestBodySize, start: Moment(start))
            self.queueWait = queueWait
            self.responseStartMoment = responseStart.map(Moment.init)
            self.endMoment = Moment(end)
            self.response = response
            self.failure = failure
            self.retryDelay = retryDelay
        }

        /// A record begun at `start` that has not ended yet (its end is its start).
        init(
            attempt: Int, hop: Int, method: HTTPMethod, url: URL, requestHeaders: HTTPHeaders,
            requestBodySize: Int64?, start: Moment
        ) {
            self.attempt = attempt
            self.hop = hop
            self.method = method
            self.url = url
            self.requestHeaders = requestHeaders
            self.requestBodySize = requestBodySize
            self.startMoment = start
            self.queueWait = .zero
            self.endMoment = start
        }

        /// Whether this request follows a redirect (``hop`` > 0) rather than starting an attempt.
        public var isRedirect: Bool { hop > 0 }
        /// When it was handed to the transport: ``start`` plus ``queueWait``.
        public var sendStart: ContinuousClock.Instant { (startMoment + queueWait).instant }
        /// From the hand-over to the response head; `nil` when none arrived.
        public var latency: Duration? { responseStartMoment.map { (startMoment + queueWait).duration(to: $0) } }
        /// From ``start`` to ``end``, the queue wait included.
        public var duration: Duration { startMoment.duration(to: endMoment) }
    }

    /// The attempts, in one array: the record of a request lives on the heap, not in the async frames the pipeline
    /// passes it through (inline, its 233 bytes grew those frames past the task allocator's slab, which cost more
    /// allocations than the array's one).
    struct Attempts: Sendable, Hashable {
        private(set) var all: [Attempt] = []

        var isEmpty: Bool { all.isEmpty }

        mutating func append(_ attempt: Attempt) {
            all.append(attempt)
        }

        /// Changes the last attempt in place, if there is one.
        mutating func updateLast(_ update: (inout Attempt) -> Void) {
            guard !all.isEmpty else { return }
            update(&all[all.count - 1])
        }

        init(_ attempts: [Attempt] = []) {
            all = attempts
        }
    }
}
