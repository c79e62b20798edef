import Foundation

/// A running or finished request, and how its response becomes a `Value`.
///
/// The transfer starts when the task is first awaited (``value``, ``result``, ``response``, any `serializing…`
/// method) and runs in the awaiting task; ``resume()`` starts it for a caller that will not await it. It runs
/// once: every `DataTask` derived from it (by validating or serializing differently) shares it, and a second
/// awaiter, in the same or another task, waits for the same outcome. Cancelling any awaiting task cancels the
/// transfer for all of them, as does ``cancel()``; a task cancelled before it started never sends anything.
/// Progress streams made before the start miss nothing.
///
/// Validation and serialization run in the awaiting task, never on the session's actor.
public struct DataTask<Value: Sendable>: Sendable {
    let transfer: Transfer
    let validation: Validation
    let serialize: @Sendable (Request, HTTPResponse, Data) throws(FerryError) -> Value

    init(
        transfer: Transfer,
        validation: Validation,
        serialize: @escaping @Sendable (Request, HTTPResponse, Data) throws(FerryError) -> Value
    ) {
        self.transfer = transfer
        self.validation = validation
        self.serialize = serialize
    }

    /// The full response: request, head, body, result, metrics and timeline. Never throws.
    ///
    /// The transfer runs once, but each read validates and serializes its outcome again: keep the response when you
    /// need it twice.
    public var response: DataResponse<Value> {
        get async {
            let outcome = await transfer.outcome()
            var timeline = outcome.timeline
            let result = Self.result(of: outcome, validation: validation, serialize: serialize)
            timeline.serializationCompleted = .now
            return DataResponse(
                request: outcome.request, response: outcome.response, data: outcome.body, result: result,
                metrics: outcome.metrics, timeline: timeline)
        }
    }

    /// The serialized value, or the error.
    public var result: Result<Value, FerryError> {
        get async { Self.result(of: await transfer.outcome(), validation: validation, serialize: serialize) }
    }

    /// The serialized value.
    /// - Throws: ``FerryError``; cancellation is ``FerryError/Reason/cancelled``.
    public var value: Value {
        get async throws(FerryError) {
            try Self.value(of: await transfer.outcome(), validation: validation, serialize: serialize)
        }
    }

    /// The validated response head.
    /// - Throws: ``FerryError``: the transfer failed, or the response failed validation.
    public var head: HTTPResponse {
        get async throws(FerryError) {
            let outcome = await transfer.outcome()
            if let error = outcome.error { throw error }
            guard let request = outcome.request, let head = outcome.response else {
                throw FerryError(.transport(.invalidResponse), request: outcome.request)
            }
            try validation.validate(head, body: outcome.body ?? Data(), for: request)
            return head
        }
    }

    /// The progress of the request body as it is sent.
    public var uploadProgress: ProgressStream { ProgressStream(reporter: transfer.controls.uploadProgress) }

    /// The progress of the response body as it arrives (in memory).
    public var downloadProgress: ProgressStream { ProgressStream(reporter: transfer.controls.downloadProgress) }

    /// Starts the transfer on a task of its own, for a caller that will not await it (fire and forget). Awaiting
    /// the task later gets the same outcome.
    public func resume() {
        transfer.resume()
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
        DataTask<Output>(transfer: transfer, validation: validation, serialize: serialize)
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

    /// The outcome validated and serialized, thrown instead of wrapped in a `Result`: a generic function that
    /// makes no `Result<Output, FerryError>` asks the runtime for no type metadata when it is not specialized.
    static func value<Output>(
        of outcome: TransferOutcome, validation: Validation,
        serialize: (Request, HTTPResponse, Data) throws(FerryError) -> Output
    ) throws(FerryError) -> Output {
        if let error = outcome.error { throw error }
        guard let request = outcome.request, let head = outcome.response else {
            throw FerryError(.transport(.invalidResponse), request: outcome.request)
        }
        let body = outcome.body ?? Data()
        try validation.validate(head, body: body, for: request)
        return try serialize(request, head, body)
    }
}

extension DataTask where Value == Data {
    init(transfer: Transfer, validation: Validation) {
        self.init(transfer: transfer, validation: validation) { _, _, body throws(FerryError) in body }
    }
}
