#if Tracing
import Foundation
import Tracing

/// A client span per logical request (the `Tracing` trait), as an observer of the transfer (``TransferObserver``),
/// like the event monitors: OpenTelemetry's stable attribute names, an event per retry and per redirect, error
/// status from 400 on, `ferry.cache` (``CacheStatus``: `hit`, `staleHit`, `revalidated`, `miss`, `unsatisfiable`)
/// when the session's cache decided, and `traceparent`/`tracestate` (whatever the bootstrapped instrument writes)
/// injected on every attempt and every hop.
///
/// The span starts in the task that sends the request, as a child of that task's `ServiceContext`, and ends with the
/// transfer (before any awaiter gets its outcome).
final class RequestTracing: TransferObserver {
    private let tracer: (any Tracer)?
    /// The spans of the requests running, by request.
    private let spans = Locked<[RequestID: any Span]>([:])

    /// Traces with `tracer`, or the bootstrapped `InstrumentationSystem.tracer` when `nil`.
    init(tracer: (any Tracer)?) {
        self.tracer = tracer
    }

    func started(_ request: Request, id: RequestID) {
        let tracer: any Tracer = tracer ?? InstrumentationSystem.tracer
        let span = tracer.startAnySpan(
            "HTTP \(request.method.rawValue)", context: ServiceContext.current ?? .topLevel, ofKind: .client)
        span.attributes["http.request.method"] = request.method.rawValue
        span.attributes["url.full"] = LogText.url(request.url)
        if let host = request.url.host { span.attributes["server.address"] = host }
        if let port = request.url.port { span.attributes["server.port"] = port }
        spans.withLock { $0[id] = span }
    }

    func willSend(_ request: inout Request, id: RequestID) {
        guard let span = span(id, ending: false) else { return }
        let instrument: any Instrument = tracer ?? InstrumentationSystem.instrument
        instrument.inject(span.context, into: &request.headers, using: HeaderInjector())
    }

    func observe(_ event: RequestEvent, id: RequestID) {
        switch event {
        case .redirect(let head, _):
            let status = Int64(head.statusCode)
            span(id, ending: false)?.addEvent(
                SpanEvent(name: "http.redirect", attributes: ["http.response.status_code": .int64(status)]))
        case .retry(let failure, _):
            let reason = "\(failure.error.reason)"
            span(id, ending: false)?.addEvent(
                SpanEvent(name: "http.retry", attributes: ["error.type": .string(reason)]))
        case .cacheDecided(let status, _):
            span(id, ending: false)?.attributes["ferry.cache"] = "\(status)"
        case .completed(let completion), .cancelled(let completion):
            guard let span = span(id, ending: true) else { return }
            Self.finish(span, with: completion)
        case .created, .adapted, .attemptStarted, .responseHead:
            break
        }
    }

    /// The request's span; forgotten when `ending`.
    private func span(_ id: RequestID, ending: Bool) -> (any Span)? {
        spans.withLock { ending ? $0.removeValue(forKey: id) : $0[id] }
    }

    private static func finish(_ span: any Span, with completion: RequestCompletion) {
        let resends = completion.metrics.retryCount + completion.metrics.redirectCount
        if resends > 0 { span.attributes["http.request.resend_count"] = resends }
        if let status = completion.response?.statusCode {
            span.attributes["http.response.status_code"] = status
            if status >= 400 { span.setStatus(SpanStatus(code: .error)) }
        }
        if let error = completion.error {
            span.attributes["error.type"] = "\(error.reason)"
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error, message: error.localizedDescription))
        }
        span.end()
    }
}

/// Sets a header field per key, replacing any earlier value.
private struct HeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into headers: inout HTTPHeaders) {
        headers.update(name: key, value: value)
    }
}
#endif
