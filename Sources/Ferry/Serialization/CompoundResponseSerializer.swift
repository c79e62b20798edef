import Foundation

/// Tries serializers in order and returns the first value made.
///
/// ```swift
/// let flexible = CompoundResponseSerializer<Config>(.decodable(Config.self),
///                                                  .decodable(Config.self, decoder: PropertyListDecoder()))
/// ```
public struct CompoundResponseSerializer<Output: Sendable>: ResponseSerializer {
    /// The serializers, in the order they are tried.
    public let serializers: [any ResponseSerializer<Output>]

    /// Creates the serializer.
    /// - Parameter serializers: The serializers to try, in order.
    public init(_ serializers: [any ResponseSerializer<Output>]) { self.serializers = serializers }

    /// Creates the serializer.
    /// - Parameter serializers: The serializers to try, in order.
    public init(_ serializers: any ResponseSerializer<Output>...) { self.serializers = serializers }

    /// Returns the value of the first serializer that succeeds.
    /// - Parameters:
    ///   - request: The request.
    ///   - response: The response head.
    ///   - data: The body.
    /// - Returns: The first value made.
    /// - Throws: The last serializer's error when none succeeds.
    public func serialize(request: Request, response: HTTPResponse, data: Data) throws -> Output {
        var lastError: any Error = SerializationFailure("no serializer was given")
        for serializer in serializers {
            do {
                return try serializer.serialize(request: request, response: response, data: data)
            } catch {
                lastError = error
            }
        }
        throw lastError
    }
}
