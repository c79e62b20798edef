import Foundation

/// The request's journey: prepare → send (following redirects, under timeouts) → hand the outcome to the
/// transfer. Validation and serialization happen later, in the awaiting task (see ``DataTask``).
struct Pipeline: Sendable {
    let configuration: Session.Configuration
    /// Why the session's default headers are invalid, if they are: checked once, not on every request.
    private let defaultHeadersError: FerryError?

    init(configuration: Session.Configuration) {
        self.configuration = configuration
        do {
            try configuration.headers.validate()
            defaultHeadersError = nil
        } catch {
            defaultHeadersError = error
        }
    }

    /// Runs `request` to completion and finishes `transfer` with the outcome.
    /// - Parameters:
    ///   - request: The request as the user made it.
    ///   - transfer: The transfer to finish.
    ///   - destination: Where the final response's body goes.
    func run(_ request: Request, finishing transfer: Transfer, destination: BodyDestination = .memory) async {
        let outcome = await perform(request, transfer: transfer, destination: destination)
        if case .stream(let buffer) = destination { buffer.finish(outcome.error) }
        transfer.finish(outcome)
    }

    func perform(_ original: Request, transfer: Transfer, destination: BodyDestination) async -> TransferOutcome {
        let startDate = Date()
        let start = ContinuousClock.now
        let request: Request
        do {
            request = try prepare(original)
        } catch {
            return .failure(error, request: original)
        }
        let sink = ResponseSink(
            limit: request.maximumBodySize ?? configuration.maximumBodySize, start: start, destination: destination,
            downloadProgress: transfer.downloadProgress, uploadProgress: transfer.uploadProgress)
        let result: Result<HTTPResponse, FerryError>
        if Task.isCancelled {
            result = .failure(FerryError(.cancelled))
        } else {
            do {
                result = .success(
                    try await Timeouts(idle: request.idleTimeout, total: request.totalTimeout, start: start)
                        .run(watching: sink, cancel: { transfer.cancel() }) { try await exchange(request, sink: sink) })
            } catch {
                result = .failure(FerryError.mapping(error, cancelled: Task.isCancelled))
            }
        }
        let completed = ContinuousClock.now
        let timeline = Timeline(
            startDate: startDate, requestStart: start, firstResponseByte: sink.firstResponseByte,
            requestCompleted: completed)
        let body = sink.takeBody()
        switch result {
        case .success(let response):
            return TransferOutcome(
                request: request, response: response, body: body, metrics: sink.metrics, timeline: timeline)
        case .failure(let error):
            let head = sink.head
            return TransferOutcome(
                request: request, response: head, body: body,
                error: error.adding(request: request, response: head, body: body),
                metrics: sink.metrics, timeline: timeline)
        }
    }

    /// Applies the session's defaults and checks the request.
    func prepare(_ original: Request) throws(FerryError) -> Request {
        var request = original
        request.url = try original.url.url(relativeTo: configuration.baseURL)
        if let defaultHeadersError { throw defaultHeadersError }
        try original.headers.validate()
        request.headers = original.headers.merging(defaults: configuration.headers)
        if let body = original.body {
            switch body.storage {
            case .failure(let error):
                throw error.adding(request: request, response: nil, body: nil)
            case .form(let pairs) where request.method.encodesParametersInQuery:
                request.appendPercentEncodedQuery(FormURLEncoding.query(pairs))
                request.body = nil
            case .form, .content:
                if let contentType = body.contentType, !request.headers.contains("Content-Type") {
                    request.headers.add(name: "Content-Type", value: contentType)
                }
            }
        }
        request.idleTimeout = original.idleTimeout ?? configuration.idleTimeout
        request.totalTimeout = original.totalTimeout ?? configuration.totalTimeout
        request.redirectPolicy = original.redirectPolicy ?? configuration.redirectPolicy
        request.maximumBodySize = original.maximumBodySize ?? configuration.maximumBodySize
        return request
    }

    /// Sends `request`, following redirects by the request's policy; returns the final response head.
    private func exchange(_ request: Request, sink: ResponseSink) async throws -> HTTPResponse {
        let policy = request.redirectPolicy ?? configuration.redirectPolicy
        var current = try await spoolIfNeeded(request)
        var redirects = 0
        while true {
            sink.beginHop(to: current.url) { [current] head in policy.nextRequest(after: head, to: current) }
            let report = try await configuration.transport.send(current, into: sink)
            sink.addBytesSent(report.bytesSent)
            guard let head = sink.head else {
                throw FerryError(.transport(.invalidResponse), request: current)
            }
            guard let next = sink.pendingRedirect else { return head }
            guard redirects < policy.limit else {
                throw FerryError(.tooManyRedirects(limit: policy.limit), request: current, response: head)
            }
            if case .stream = next.body?.content {
                throw FerryError(
                    .invalidRequest("a streamed body cannot be sent again for a \(head.statusCode) redirect"),
                    request: current, response: head)
            }
            redirects += 1
            current = next
        }
    }

    /// Spools a stream body to a temporary file when the transport cannot stream request bodies.
    private func spoolIfNeeded(_ request: Request) async throws -> Request {
        guard !configuration.transport.streamsRequestBodies, let body = request.body,
            case .stream(let source, _) = body.content
        else { return request }
        var spooled = request
        spooled.body = try await body.spooled(source)
        return spooled
    }
}
