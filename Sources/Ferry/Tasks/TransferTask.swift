import Foundation

/// One vocabulary for every kind of task: each name means the same on ``DataTask``, ``DownloadTask`` and
/// ``StreamTask``.
///
/// | name | meaning |
/// |---|---|
/// | ``head`` | the final response head, as soon as it arrives, once it passed the status and content-type checks |
/// | ``response`` | everything, once the transfer ended; never throws |
/// | ``result`` | the value or the error, once the transfer ended |
/// | ``value`` | the value (the serialized body, the file, `Void` for a stream), or a thrown ``FerryError`` |
/// | `validate…`, ``unvalidated()`` | a task on the same transfer with another validation |
/// | ``resume()`` | starts the transfer on a task of its own |
/// | ``cancel()`` | stops it for every awaiter |
/// | ``downloadProgress``, ``uploadProgress`` | progress snapshots; iterating one starts the transfer when nobody did |
///
/// A transfer starts when a task is first needed and runs once, whichever task values are made from it.
public protocol TransferTask: Sendable {
    /// What the task produces: a serialized body, a file URL, or `Void` for a stream.
    associatedtype Value: Sendable

    /// The final response head, as soon as it arrives, once it passed the status and content-type checks.
    var head: HTTPResponse { get async throws(FerryError) }
    /// Everything known once the transfer ended; never throws.
    var response: DataResponse<Value> { get async }
    /// The value, or the error.
    var result: Result<Value, FerryError> { get async }
    /// The value.
    var value: Value { get async throws(FerryError) }
    /// The validation this task applies: the session's unless a `validate…` method replaced it.
    var validation: Validation { get }
    /// Returns a task on the same transfer validated by `validation` instead.
    /// - Parameter validation: The validation, e.g. ``Validation/none``.
    /// - Returns: The task.
    func validate(using validation: Validation) -> Self
    /// The progress of the response body; iterating it starts the transfer when nobody did.
    var downloadProgress: ProgressStream { get }
    /// The progress of the request body; iterating it starts the transfer when nobody did.
    var uploadProgress: ProgressStream { get }
    /// Starts the transfer on a task of its own, for a caller that will not await it now.
    func resume()
    /// Stops the transfer for every awaiter; one that has not started never will.
    func cancel()
}

extension TransferTask {
    /// Returns a task that accepts only these status codes (replacing the session's status check).
    /// - Parameter statusCodes: The acceptable codes, e.g. `200..<400` or `[200, 304]`.
    /// - Returns: The task.
    public func validate(statusCode statusCodes: some Sequence<Int>) -> Self {
        var validation = self.validation
        validation.acceptableStatusCodes = Set(statusCodes)
        return validate(using: validation)
    }

    /// Returns a task that accepts only these content types (wildcards such as `text/*` allowed).
    /// - Parameter contentTypes: The acceptable media types.
    /// - Returns: The task.
    public func validate(contentType contentTypes: [String]) -> Self {
        var validation = self.validation
        validation.acceptableContentTypes = .types(contentTypes)
        return validate(using: validation)
    }

    /// Returns a task that accepts only content types the request's `Accept` header allows.
    /// - Returns: The task.
    public func validateContentTypeAgainstAccept() -> Self {
        var validation = self.validation
        validation.acceptableContentTypes = .matchingAccept
        return validate(using: validation)
    }

    /// Returns a task that also runs `check` once the body was read (a download's and a stream's `body` is empty:
    /// their bodies are on disk or with the consumer); throwing from it fails the task.
    /// - Parameter check: Gets the request, the response head and the body; throws to reject.
    /// - Returns: The task.
    public func validate(
        _ check: @escaping @Sendable (_ request: Request, _ response: HTTPResponse, _ body: Data) throws -> Void
    ) -> Self {
        var validation = self.validation
        validation.validators.append(Validation.Validator(check))
        return validate(using: validation)
    }

    /// Returns a task that accepts every response, whatever its status.
    /// - Returns: The task.
    public func unvalidated() -> Self {
        validate(using: .none)
    }

    /// The value, or the error.
    public var result: Result<Value, FerryError> {
        get async { await response.result }
    }

    /// The value.
    /// - Throws: ``FerryError``; cancellation is ``FerryError/Reason/cancelled``.
    public var value: Value {
        get async throws(FerryError) { try await result.get() }
    }
}
