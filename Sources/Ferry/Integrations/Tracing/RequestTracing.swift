#if Tracing
import Foundation
import Tracing

/// A client span per logical request (the `Tracing` trait), in the task that awaits it, so it is a child of the
/// caller's `ServiceContext`: OpenTelemetry's stable attribute names, an event per retry and per redirect, error
/// status from 400 on, and `traceparent`/`tracestate` (whatever the bootstrapped instrument writes) injected on
/// every attempt and every hop.
enum RequestTracing {
    /// The span of the request running in this task.
    @TaskLocal static var span: (any Span)?

    /// Runs `operation`, the part of `request`'s transfer that runs in this task, inside its span: the whole
    /// transfer (its outcome), or its sending up to the head (`nil`; the body is then read by another task).
    @discardableResult
    static func traced(
        _ request: Request?, tracer: (any Tracer)?, _ operation: () async -> TransferOutcome?
    ) async -> TransferOutcome? {
        guard let request else { return await operation() }
        let tracer = tracer ?? InstrumentationSystem.tracer
        return await tracer.withAnySpan("HTTP \(request.method.rawValue)", ofKind: .client) { span in
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["url.full"] = LogText.url(request.url)
            if let host = request.url.host { span.attributes["server.address"] = host }
            if let port = request.url.port { span.attributes["server.port"] = port }
            let outcome = await $span.withValue(span) { await operation() }
            if let outcome { finish(span, with: outcome) }
            return outcome
        }
    }

    /// Writes the trace context of this task (the request's span) into `request`'s headers.
    static func inject(into request: inout Request, tracer: (any Tracer)?) {
        guard let context = ServiceContext.current else { return }
        let instrument: any Instrument = tracer ?? InstrumentationSystem.instrument
        instrument.inject(context, into: &request.headers, using: HeaderInjector())
    }

    /// Adds an event to the request's span, if one is running in this task.
    static func event(_ name: String, _ attributes: SpanAttributes = [:]) {
        span?.addEvent(SpanEvent(name: name, attributes: attributes))
    }

    private static func finish(_ span: any Span, with outcome: TransferOutcome) {
        let resends = outcome.metrics.retryCount + outcome.metrics.redirectCount
        if resends > 0 { span.attributes["http.request.resend_count"] = resends }
        if let status = outcome.response?.statusCode {
            span.attributes["http.response.status_code"] = status
            if status >= 400 { span.setStatus(SpanStatus(code: .error)) }
        }
        if let error = outcome.error {
            span.attributes["error.type"] = "\(error.reason)"
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error, message: error.localizedDescription))
        }
    }
}

/// Sets a header field per key, replacing any earlier value.
private struct HeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into headers: inout HTTPHeaders) {
        headers.update(name: key, value: value)
    }
}
#endif
