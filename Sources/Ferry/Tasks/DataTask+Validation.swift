import Foundation

extension DataTask {
    /// Returns a task that accepts only these status codes (replacing the session's status check).
    /// - Parameter statusCodes: The acceptable codes, e.g. `200..<400` or `[200, 304]`.
    /// - Returns: The task.
    public func validate(statusCode statusCodes: some Sequence<Int>) -> DataTask<Value> {
        var validation = self.validation
        validation.acceptableStatusCodes = Set(statusCodes)
        return with(validation: validation, serialize: serialize)
    }

    /// Returns a task that accepts only these content types (wildcards such as `text/*` allowed).
    /// - Parameter contentTypes: The acceptable media types.
    /// - Returns: The task.
    public func validate(contentType contentTypes: [String]) -> DataTask<Value> {
        var validation = self.validation
        validation.acceptableContentTypes = .types(contentTypes)
        return with(validation: validation, serialize: serialize)
    }

    /// Returns a task that accepts only content types the request's `Accept` header allows.
    /// - Returns: The task.
    public func validateContentTypeAgainstAccept() -> DataTask<Value> {
        var validation = self.validation
        validation.acceptableContentTypes = .matchingAccept
        return with(validation: validation, serialize: serialize)
    }

    /// Returns a task that also runs `check`; throwing from it fails the task.
    /// - Parameter check: Gets the request, the response head and the body; throws to reject.
    /// - Returns: The task.
    public func validate(
        _ check: @escaping @Sendable (_ request: Request, _ response: HTTPResponse, _ body: Data) throws -> Void
    ) -> DataTask<Value> {
        var validation = self.validation
        validation.validators.append(Validation.Validator(check))
        return with(validation: validation, serialize: serialize)
    }

    /// Returns a task validated by `validation` instead of the session's.
    /// - Parameter validation: The validation, e.g. ``Validation/none``.
    /// - Returns: The task.
    public func validate(using validation: Validation) -> DataTask<Value> {
        with(validation: validation, serialize: serialize)
    }

    /// Returns a task that accepts every response, whatever its status.
    /// - Returns: The task.
    public func unvalidated() -> DataTask<Value> {
        with(validation: .none, serialize: serialize)
    }
}
