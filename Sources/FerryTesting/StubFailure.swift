import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport failure an ``InMemoryTransport`` stub can simulate: thrown as the `URLError` URLSession would throw,
/// so Ferry maps it to the same ``/Ferry/FerryError`` reason and message as a real one.
///
/// Use it with ``StubResponse/failure(_:)`` (the request fails before any response) or
/// ``StubResponse/failing(with:)`` (the body breaks off after the stub's chunks).
public struct StubFailure: Sendable, Hashable {
    /// The `URLError` code.
    public var code: URLError.Code
    /// What the engine would say, as libcurl or CFNetwork put it.
    public var message: String

    /// Creates a failure.
    /// - Parameters:
    ///   - code: The `URLError` code.
    ///   - message: The engine's message.
    public init(code: URLError.Code, message: String) {
        self.code = code
        self.message = message
    }

    /// Nothing listens: ``/Ferry/FerryError/Reason/transport(_:)`` with `.cannotConnect`, "connection refused".
    public static let connectionRefused = StubFailure(code: .cannotConnectToHost, message: "Connection refused")
    /// The peer reset the connection: `.transport(.connectionLost)`, "connection reset".
    public static let connectionReset = StubFailure(code: .networkConnectionLost, message: "Connection reset by peer")
    /// The engine gave up waiting: ``/Ferry/FerryError/Reason/timedOut(_:)`` (`.idle`).
    public static let timedOut = StubFailure(code: .timedOut, message: "The request timed out.")
    /// The name does not resolve: `.transport(.hostNotFound)`.
    public static let hostNotFound = StubFailure(code: .cannotFindHost, message: "Could not resolve host")

    /// The error the transport throws.
    public var error: URLError {
        URLError(code, userInfo: [NSLocalizedDescriptionKey: message])
    }
}
