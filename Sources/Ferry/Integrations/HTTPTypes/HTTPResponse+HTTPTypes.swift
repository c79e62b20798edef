#if HTTPTypes
public import Foundation
public import HTTPTypes

extension HTTPResponse {
    /// Ferry's response head for `response`, received for `url`.
    /// - Parameters:
    ///   - response: A swift-http-types response.
    ///   - url: The URL the response answers.
    public init(_ response: HTTPTypes.HTTPResponse, url: URL) {
        self.init(statusCode: response.status.code, headers: HTTPHeaders(response.headerFields), url: url)
    }
}

extension HTTPTypes.HTTPResponse {
    /// A swift-http-types response for Ferry's response head: its status code and its fields, in order.
    /// - Parameter response: Ferry's response head.
    /// - Throws: ``FerryError/Reason/invalidRequest(_:)`` for a field name that is not an HTTP token.
    public init(_ response: HTTPResponse) throws(FerryError) {
        self.init(status: .init(code: response.statusCode), headerFields: try HTTPFields(response.headers))
    }
}
#endif
