/// Why bytes from a streamed body could not be cut into lines, events or JSON values.
///
/// Ferry throws these wrapped in a ``FerryError`` whose reason is ``FerryError/Reason/serializationFailed``; the
/// framing error is the ``FerryError/underlyingError``.
public enum StreamFramingError: Error, Sendable, Hashable {
    /// A line grew past the limit, in bytes, before its terminator arrived.
    case lineTooLong(limit: Int)
    /// A line is not valid UTF-8.
    case invalidUTF8
}

extension FerryError {
    /// Returns a serialization failure caused by a framing error.
    /// - Parameter framingError: What went wrong while framing.
    /// - Returns: A ``FerryError`` with reason ``Reason/serializationFailed``.
    static func framing(_ framingError: StreamFramingError) -> FerryError {
        FerryError(.serializationFailed, underlyingError: framingError)
    }
}
