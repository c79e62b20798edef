import Foundation

/// Returns the body as it arrived.
public struct DataResponseSerializer: ResponseSerializer {
    /// Creates the serializer.
    public init() {}

    /// Returns `data`.
    /// - Parameters:
    ///   - request: Unused.
    ///   - response: Unused.
    ///   - data: The body.
    /// - Returns: The body.
    public func serialize(request: Request, response: HTTPResponse, data: Data) -> Data { data }
}

extension ResponseSerializer where Self == DataResponseSerializer {
    /// The body as it arrived.
    public static var data: DataResponseSerializer { DataResponseSerializer() }
}
