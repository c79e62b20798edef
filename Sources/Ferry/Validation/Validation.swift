import Foundation

/// What a response must satisfy before it is serialized.
///
/// A session validates every response with its configuration's `Validation` (a 2xx status by default). Every task
/// can change that, in the same words (``TransferTask``): `validate(statusCode:)`, `validate(contentType:)`,
/// `validateContentTypeAgainstAccept()`, `validate(_:)`, `validate(using:)` and `unvalidated()`.
///
/// The validation of the task that starts a transfer is applied once, by the pipeline: the status and a declared
/// `Content-Type` when the head arrives (the retriers see that verdict, and it decides where a download's body goes),
/// a missing `Content-Type` and the custom validators once the body is read (a stream's at the head, with an empty
/// body).
public struct Validation: Sendable {
    /// The status codes accepted, or `nil` to accept every status.
    public var acceptableStatusCodes: Set<Int>?
    /// Which `Content-Type`s are accepted, or `nil` not to check.
    public var acceptableContentTypes: ContentTypeRule?
    /// Further checks, run in order after the status and content type.
    public var validators: [Validator]

    /// Creates a validation.
    /// - Parameters:
    ///   - acceptableStatusCodes: The status codes accepted; `nil` accepts all.
    ///   - acceptableContentTypes: The content-type rule; `nil` checks none.
    ///   - validators: Further checks.
    public init(
        acceptableStatusCodes: Set<Int>? = nil,
        acceptableContentTypes: ContentTypeRule? = nil,
        validators: [Validator] = []
    ) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
        self.validators = validators
    }

    /// Accepts `200..<300`.
    public static let successfulStatus = Validation(acceptableStatusCodes: Set(200..<300))
    /// Accepts everything.
    public static let none = Validation()

    /// Which content types are accepted.
    public enum ContentTypeRule: Sendable, Hashable {
        /// Those the request's `Accept` header allows (`*/*` and `type/*` wildcards; anything when it has none).
        case matchingAccept
        /// These media types, wildcards allowed (`"application/json"`, `"text/*"`).
        case types([String])
    }

    /// A custom check: throws to reject the response.
    public struct Validator: Sendable {
        /// The check, in a box whose identity tells two validators apart (``Validation/isSameRule(as:)``).
        final class Box: Sendable {
            let check: @Sendable (_ request: Request, _ response: HTTPResponse, _ body: Data) throws -> Void

            init(
                _ check: @escaping @Sendable (_ request: Request, _ response: HTTPResponse, _ body: Data) throws -> Void
            ) {
                self.check = check
            }
        }

        let box: Box

        var check: @Sendable (_ request: Request, _ response: HTTPResponse, _ body: Data) throws -> Void { box.check }

        /// Creates a validator.
        /// - Parameter check: Throws to reject the response; the error becomes the underlying error of a
        ///   ``FerryError`` with reason ``FerryError/Reason/validationFailed`` (a thrown ``FerryError`` is kept).
        public init(
            _ check: @escaping @Sendable (_ request: Request, _ response: HTTPResponse, _ body: Data) throws -> Void
        ) {
            box = Box(check)
        }
    }

    /// Checks `response` to `request` with its whole body: the head's checks, then the body's.
    /// - Throws: ``FerryError`` carrying the request, the response head and the first bytes of the body.
    func validate(_ response: HTTPResponse, body: Data, for request: Request) throws(FerryError) {
        try validateHead(response, for: request)
        try validateBody(body, length: Int64(body.count), of: response, for: request)
    }

    /// The checks the pipeline makes when the head arrives, before it decides where the body goes: the status, and
    /// a `Content-Type` the response declares.
    /// - Throws: ``FerryError`` carrying the request and the response head.
    func validateHead(_ response: HTTPResponse, for request: Request) throws(FerryError) {
        if let acceptableStatusCodes, !acceptableStatusCodes.contains(response.statusCode) {
            throw FerryError(.unacceptableStatus(response.statusCode), request: request, response: response)
        }
        if let rule = acceptableContentTypes, response.contentType != nil {
            try validateContentType(rule, response: response, body: Data(), request: request)
        }
    }

    /// The checks that need the body: a missing `Content-Type` on a body that is not empty (when content types are
    /// checked), then the custom validators.
    /// - Parameters:
    ///   - body: The body in memory; empty for a body on disk.
    ///   - length: The body's length (a download's bytes on disk).
    /// - Throws: ``FerryError`` carrying the request, the response head and the first bytes of the body.
    func validateBody(
        _ body: Data, length: Int64, of response: HTTPResponse, for request: Request
    ) throws(FerryError) {
        if let rule = acceptableContentTypes, response.contentType == nil, length > 0 {
            try validateContentType(rule, response: response, body: body, request: request)
        }
        for validator in validators {
            do {
                try validator.check(request, response, body)
            } catch let error as FerryError {
                throw error.adding(request: request, response: response, body: body)
            } catch {
                throw FerryError(
                    .validationFailed, request: request, response: response, body: body, underlyingError: error)
            }
        }
    }

    /// Whether `other` is the same rule: the same statuses and content types, and the very same validators.
    func isSameRule(as other: Validation) -> Bool {
        acceptableStatusCodes == other.acceptableStatusCodes
            && acceptableContentTypes == other.acceptableContentTypes
            && validators.count == other.validators.count
            && zip(validators, other.validators).allSatisfy { $0.box === $1.box }
    }

    private func validateContentType(
        _ rule: ContentTypeRule, response: HTTPResponse, body: Data, request: Request
    ) throws(FerryError) {
        let acceptable: [String] =
            switch rule {
            case .types(let types): types
            case .matchingAccept:
                (request.headers["Accept"] ?? "*/*").split(separator: ",").compactMap { range in
                    let media = MediaType(parsing: String(range))
                    return media.parameters["q"].flatMap(Double.init) == 0 ? nil : media.essence
                }
            }
        guard let contentType = response.contentType else {
            if body.isEmpty { return }
            throw FerryError(
                .unacceptableContentType(received: nil, acceptable: acceptable),
                request: request, response: response, body: body)
        }
        let received = MediaType(parsing: contentType)
        guard acceptable.contains(where: { MediaType(parsing: $0).matches(received) }) else {
            throw FerryError(
                .unacceptableContentType(received: received.essence, acceptable: acceptable),
                request: request, response: response, body: body)
        }
    }
}
