import Foundation

/// The one error type Ferry throws.
///
/// A `FerryError` says *why* a request failed (``reason``, which a program can switch on) and carries what is
/// known at that point: the request, the response head when one arrived, the first bytes of the body and the
/// underlying error (a `URLError`, a `DecodingError`, …).
///
/// Its messages are written for a person: ``errorDescription`` (also `localizedDescription`) is one sentence that
/// names the request and what happened, such as `GET http://127.0.0.1:8080/users/7 failed: the server answered
/// 404 Not Found.`; ``recoverySuggestion`` says what to change when there is something to change. The underlying
/// error stays in ``underlyingError`` and out of the message; ``debugDescription`` adds it for logs.
///
/// Cancellation of the awaiting Swift task, or of the ``DataTask``, surfaces as a `FerryError` whose reason is
/// ``Reason/cancelled``; Ferry never throws `CancellationError` itself.
public struct FerryError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Why the request failed.
    public var reason: Reason
    /// Everything else, in one shared box: an error is a small value (a reason and a reference) on every path
    /// that may throw one, which keeps the async frames of the request path small; only changing a field copies.
    private var context: Context

    /// The request as Ferry sent it (after defaults were applied), or `nil` when it could not be built.
    public var request: Request? {
        get { context.fields.request }
        set { mutate { $0.request = newValue } }
    }
    /// The head of the response that arrived, or `nil` when none did.
    public var response: HTTPResponse? {
        get { context.fields.response }
        set { mutate { $0.response = newValue } }
    }
    /// Up to ``bodyPrefixLimit`` bytes of the response body, when a body arrived.
    public var bodyPrefix: Data? {
        get { context.fields.bodyPrefix }
        set { mutate { $0.bodyPrefix = newValue } }
    }
    /// The error that caused this one, if any: a `URLError`, a `DecodingError`, a user validator's error, ….
    public var underlyingError: (any Error)? {
        get { context.fields.underlyingError }
        set { mutate { $0.underlyingError = newValue } }
    }
    /// What the underlying error says beyond the reason (a refused connection, a reset), for the message.
    var detail: Detail? {
        get { context.fields.detail }
        set { mutate { $0.detail = newValue } }
    }

    /// How many bytes of the body ``bodyPrefix`` keeps at most.
    public static let bodyPrefixLimit = 2048

    /// Creates an error.
    /// - Parameters:
    ///   - reason: Why the request failed.
    ///   - request: The request, if it was built.
    ///   - response: The response head, if one arrived.
    ///   - body: The body that arrived; only its first ``bodyPrefixLimit`` bytes are kept.
    ///   - underlyingError: The error that caused this one.
    public init(
        _ reason: Reason,
        request: Request? = nil,
        response: HTTPResponse? = nil,
        body: Data? = nil,
        underlyingError: (any Error)? = nil
    ) {
        self.reason = reason
        self.context = Context(
            Context.Fields(
                request: request, response: response, bodyPrefix: body.map { Data($0.prefix(Self.bodyPrefixLimit)) },
                underlyingError: underlyingError))
    }

    /// Creates an error whose message gives `detail` (found in `underlyingError`) as well as the reason.
    init(_ reason: Reason, detail: Detail?, underlyingError: (any Error)?) {
        self.init(reason, underlyingError: underlyingError)
        self.detail = detail
    }

    /// The HTTP status code of the response, or `nil` when no response arrived.
    public var statusCode: Int? { response?.statusCode }

    /// Whether the request was cancelled (by ``DataTask/cancel()``, the awaiting task or the session).
    public var isCancellation: Bool { reason == .cancelled }

    /// Whether the request ran out of time.
    public var isTimeout: Bool {
        if case .timedOut = reason { return true }
        return false
    }

    /// One line for logs: ``errorDescription`` followed by the ``reason`` in brackets, as in
    /// `GET http://127.0.0.1:1/ failed: could not connect to 127.0.0.1:1: connection refused. [transport failure
    /// (cannot connect)]`. The underlying error is left out; see ``debugDescription``.
    public var description: String {
        "\(message) [\(reason)]"
    }

    /// ``description`` followed by the underlying error in full, for debugging.
    public var debugDescription: String {
        guard let underlyingError else { return description }
        return "\(description) Underlying error: \(String(reflecting: underlyingError))"
    }
}

extension FerryError {
    /// Returns this error with the request and response filled in where they were missing.
    func adding(request: Request?, response: HTTPResponse?, body: Data?) -> FerryError {
        var error = self
        if error.request == nil { error.request = request }
        if error.response == nil { error.response = response }
        if error.bodyPrefix == nil, let body, !body.isEmpty {
            error.bodyPrefix = Data(body.prefix(Self.bodyPrefixLimit))
        }
        return error
    }
}

extension FerryError {
    /// The fields of an error besides its reason, immutable and shared by copies.
    private final class Context: Sendable {
        struct Fields: Sendable {
            var request: Request?
            var response: HTTPResponse?
            var bodyPrefix: Data?
            var underlyingError: (any Error)?
            var detail: Detail?
        }

        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    /// Replaces the shared box with a changed copy.
    private mutating func mutate(_ change: (inout Context.Fields) -> Void) {
        var fields = context.fields
        change(&fields)
        context = Context(fields)
    }
}
