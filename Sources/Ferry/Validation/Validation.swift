import Foundation

/// What a response must satisfy before it is serialized.
///
/// A session validates every response with its configuration's `Validation` (a 2xx status by default). A
/// ``DataTask`` can change that: ``DataTask/validate(statusCode:)``, ``DataTask/validate(contentType:)``,
/// ``DataTask/validateContentTypeAgainstAccept()``, ``DataTask/validate(_:)`` and ``DataTask/unvalidated()``.
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
        let check: @Sendable (_ request: Request, _ response: HTTPResponse, _ body: Data) throws -> Void

        /// Creates a validator.
        /// - Parameter check: Throws to reject the response; the error becomes the underlying error of a
        ///   ``FerryError`` with reason ``FerryError/Reason/validationFailed`` (a thrown ``FerryError`` is kept).
        public init(
            _ check: @escaping @Sendable (_ request: Request, _ response: HTTPResponse, _ body: Data) throws -> Void
        ) {
            self.check = check
        }
    }

    /// Checks `response` to `request`.
    /// - Throws: ``FerryError`` carrying the request, the response head and the first bytes of the body.
    func validate(_ response: HTTPResponse, body: Data, for request: Request) throws(FerryError) {
        if let acceptableStatusCodes, !acceptableStatusCodes.contains(response.statusCode) {
            throw FerryError(.unacceptableStatus(response.statusCode), request: request, response: response, body: body)
        }
        if let rule = acceptableContentTypes {
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
