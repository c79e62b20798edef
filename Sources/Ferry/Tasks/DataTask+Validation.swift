extension DataTask: TransferTask {
    /// Returns a task on the same transfer validated by `validation` instead of the session's.
    /// - Parameter validation: The validation, e.g. ``Validation/none``.
    /// - Returns: The task.
    public func validate(using validation: Validation) -> DataTask<Value> {
        with(validation: validation, serialize: serialize)
    }
}
