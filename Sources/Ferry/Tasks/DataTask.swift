import Foundation

/// A running or finished request, and how its response becomes a `Value`.
///
/// The transfer starts when the task is first needed: awaiting ``head``, ``response``, ``result``, ``value`` or any
/// `serializing…` method runs it in the awaiting task; iterating ``downloadProgress`` or ``uploadProgress`` before
/// that, or ``resume()``, starts it on a task of its own. It runs once: every `DataTask` derived from it (by
/// validating or serializing differently) shares it, and a later awaiter, in the same or another task, gets the
/// same outcome. Cancelling any awaiting task cancels the transfer for all of them, as does ``cancel()``; a task
/// cancelled before it started never sends anything. Progress streams made before the start miss nothing.
///
/// The validation of the task that starts the transfer is the pipeline's: it judges the head as it arrives (the
/// retriers see that verdict) and the body once read. A task derived with another validation judges the same
/// response again. Serialization runs in the awaiting task, never on the session's actor.
public struct DataTask<Value: Sendable>: Sendable {
    let transfer: Transfer
    /// The validation this task applies: the session's unless a `validate…` method replaced it.
    public let validation: Validation
    let serialize: @Sendable (Request, HTTPResponse, Data) throws(FerryError) -> Value
    let lifetime: TaskLifetime

    init(
        transfer: Transfer,
        validation: Validation,
        lifetime: TaskLifetime? = nil,
        serialize: @escaping @Sendable (Request, HTTPResponse, Data) throws(FerryError) -> Value
    ) {
        self.transfer = transfer
        self.validation = validation
        self.serialize = serialize
        self.lifetime = lifetime ?? TaskLifetime(transfer)
    }

    /// The full response: request, head, body, result, metrics and timeline. Never throws.
    ///
    /// The transfer runs once, but each read serializes its outcome again: keep the response when you need it twice.
    public var response: DataResponse<Value> {
        get async {
            let outcome = await transfer.outcome(validation: validation)
            var timeline = outcome.timeline
            let result = Self.result(of: outcome, validation: validation, serialize: serialize)
            timeline.moments.serializationCompleted = .now
            return DataResponse(
                request: outcome.request, response: outcome.response, data: outcome.body, result: result,
                metrics: outcome.metrics, timeline: timeline)
        }
    }

    /// The serialized value, or the error.
    public var result: Result<Value, FerryError> {
        get async {
            Self.result(
                of: await transfer.outcome(validation: validation), validation: validation, serialize: serialize)
        }
    }

    /// The serialized value.
    /// - Throws: ``FerryError``; cancellation is ``FerryError/Reason/cancelled``.
    public var value: Value {
        get async throws(FerryError) {
            try Self.value(
                of: await transfer.outcome(validation: validation), validation: validation, serialize: serialize)
        }
    }

    /// The final response head, as soon as it arrives, once it passed the status and content-type checks. The body
    /// is then read by whoever awaits ``value`` (or ``response``, ``result``, a `serializing…` method); a task
    /// whose body nobody will read is cancelled when its last copy is released.
    /// - Throws: ``FerryError``: the transfer failed before the head arrived, or the head failed validation.
    public var head: HTTPResponse {
        get async throws(FerryError) { try await transfer.head(validation: validation).get() }
    }

    /// The progress of the request body as it is sent. Iterating it starts the transfer when nobody did.
    public var uploadProgress: ProgressStream { transfer.uploadProgress(validation) }

    /// The progress of the response body as it arrives. Iterating it starts the transfer when nobody did, so a
    /// loop over it, then an `await` of the value, works as written.
    public var downloadProgress: ProgressStream { transfer.downloadProgress(validation) }

    /// Starts the transfer on a task of its own, for a caller that will not await it (fire and forget). Awaiting
    /// the task later gets the same outcome.
    public func resume() {
        transfer.start(validation: validation)
    }

    /// Cancels the transfer. Awaiters get ``FerryError/Reason/cancelled`` unless it had already finished; a task
    /// that has not started never will.
    public func cancel() {
        transfer.cancel()
    }

    /// Returns a task with the same transfer, validated by `validation` and serialized by `serializer`.
    func with<Output: Sendable>(
        validation: Validation,
        serialize: @escaping @Sendable (Request, HTTPResponse, Data) throws(FerryError) -> Output
    ) -> DataTask<Output> {
        DataTask<Output>(transfer: transfer, validation: validation, lifetime: lifetime, serialize: serialize)
    }

    /// The outcome validated and serialized: the transfer's error, the validation's, the serializer's, or the value.
    static func result<Output>(
        of outcome: TransferOutcome, validation: Validation,
        serialize: (Request, HTTPResponse, Data) throws(FerryError) -> Output
    ) -> Result<Output, FerryError> {
        do throws(FerryError) {
            return .success(try value(of: outcome, validation: validation, serialize: serialize))
        } catch {
            return .failure(error)
        }
    }

    /// The outcome validated and serialized, thrown instead of wrapped in a `Result`. The pipeline's verdict stands
    /// when `validation` is the rule it applied; another rule judges the head and body again.
    static func value<Output>(
        of outcome: TransferOutcome, validation: Validation,
        serialize: (Request, HTTPResponse, Data) throws(FerryError) -> Output
    ) throws(FerryError) -> Output {
        let judged = outcome.validation.map { validation.isSameRule(as: $0) } ?? false
        if let error = outcome.error, judged || !outcome.isRejection { throw error }
        guard outcome.opened, let request = outcome.request, let head = outcome.response else {
            throw FerryError(.transport(.invalidResponse), request: outcome.request)
        }
        let body = outcome.body ?? Data()
        if !judged { try validation.validate(head, body: body, for: request) }
        return try serialize(request, head, body)
    }
}

extension DataTask where Value == Data {
    init(transfer: Transfer, validation: Validation) {
        self.init(transfer: transfer, validation: validation) { _, _, body throws(FerryError) in body }
    }
}

/// Drops a transfer's unread body when the last copy of its tasks is gone (every task type holds one): a body that
/// nobody can read any more must not hold its connection. A transfer that runs on, for an awaiter or after
/// `resume()`, is left alone.
final class TaskLifetime: Sendable {
    let transfer: Transfer

    init(_ transfer: Transfer) {
        self.transfer = transfer
    }

    deinit {
        transfer.abandon()
    }
}
